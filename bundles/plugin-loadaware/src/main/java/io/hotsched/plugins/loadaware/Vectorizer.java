package io.hotsched.plugins.loadaware;

import io.fabric8.kubernetes.api.model.Quantity;
import io.hotsched.api.framework.Resource;
import java.util.List;
import java.util.Map;

/**
 * Resource amounts as vectors over a fixed, sorted list of names: cpu in millicores, every other
 * resource in whole units. Names outside the list are ignored.
 */
public final class Vectorizer {

    private final List<String> names;

    public Vectorizer(List<String> names) {
        this.names = List.copyOf(names);
    }

    public List<String> names() {
        return names;
    }

    public int size() {
        return names.size();
    }

    public int indexOf(String name) {
        return names.indexOf(name);
    }

    /** A vector of quantities (a ResourceList); null for null. */
    public long[] ofQuantities(Map<String, Quantity> list) {
        if (list == null) {
            return null;
        }
        long[] v = new long[names.size()];
        for (Map.Entry<String, Quantity> e : list.entrySet()) {
            int i = names.indexOf(e.getKey());
            if (i >= 0 && e.getValue() != null) {
                v[i] = amount(e.getKey(), e.getValue());
            }
        }
        return v;
    }

    /** A vector of numbers already in vector units. */
    public long[] ofAmounts(Map<String, Long> amounts) {
        long[] v = new long[names.size()];
        amounts.forEach((k, n) -> {
            int i = names.indexOf(k);
            if (i >= 0) {
                v[i] = n;
            }
        });
        return v;
    }

    /** A quantity in vector units: cpu in millicores, the rest in whole units. */
    public static long amount(String name, Quantity q) {
        return name.equals(Resource.CPU) ? Resource.milliValue(q) : Resource.value(q);
    }

    static long[] plus(long[] a, long[] b) {
        long[] out = a.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] += b[i];
        }
        return out;
    }

    static boolean isZero(long[] v) {
        for (long x : v) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }
}
