package io.hotsched.plugins.defaults.helper;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.function.Predicate;

/** Kubernetes' toleration matching (v1 Toleration.ToleratesTaint). */
public final class Taints {

    private Taints() {}

    /**
     * Whether {@code t} tolerates {@code taint}: effects match (an empty toleration effect matches
     * all), keys match (an empty key with Exists matches all), and the operator is Exists or the
     * values are equal (an empty operator means Equal).
     */
    public static boolean tolerates(Toleration t, Taint taint) {
        String effect = t.getEffect();
        if (effect != null && !effect.isEmpty() && !effect.equals(taint.getEffect())) {
            return false;
        }
        String key = t.getKey();
        String op = t.getOperator() == null || t.getOperator().isEmpty() ? "Equal" : t.getOperator();
        if (key == null || key.isEmpty()) {
            return "Exists".equals(op);
        }
        if (!key.equals(taint.getKey())) {
            return false;
        }
        if ("Exists".equals(op)) {
            return true;
        }
        return "Equal".equals(op) && nullToEmpty(t.getValue()).equals(nullToEmpty(taint.getValue()));
    }

    /** Whether any of {@code tolerations} tolerates {@code taint}. */
    public static boolean tolerated(Taint taint, List<Toleration> tolerations) {
        if (tolerations != null) {
            for (Toleration t : tolerations) {
                if (tolerates(t, taint)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The first taint among {@code taints} that {@code relevant} selects and no toleration tolerates, or null. */
    public static Taint firstUntolerated(List<Taint> taints, List<Toleration> tolerations, Predicate<Taint> relevant) {
        if (taints == null) {
            return null;
        }
        for (Taint taint : taints) {
            if (relevant.test(taint) && !tolerated(taint, tolerations)) {
                return taint;
            }
        }
        return null;
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
