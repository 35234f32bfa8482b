package io.hotsched.plugins.loadaware;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Koordinator's priority classes: the label {@code koordinator.sh/priority-class}, else the range
 * of {@code spec.priority}, else derived from the QoS class (SYSTEM, LSE, LSR, LS: prod; BE: batch).
 */
public enum PriorityClass {
    PROD("koord-prod"),
    MID("koord-mid"),
    BATCH("koord-batch"),
    FREE("koord-free"),
    NONE("");

    static final String LABEL = "koordinator.sh/priority-class";
    static final String QOS_LABEL = "koordinator.sh/qosClass";

    private final String label;

    PriorityClass(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The class a label value names, or null. */
    public static PriorityClass named(String value) {
        for (PriorityClass c : values()) {
            if (c != NONE && c.label.equals(value)) {
                return c;
            }
        }
        return null;
    }

    public static PriorityClass of(Pod pod) {
        Map<String, String> labels =
                pod.getMetadata() == null ? null : pod.getMetadata().getLabels();
        PriorityClass byLabel = labels == null ? null : named(labels.get(LABEL));
        if (byLabel != null) {
            return byLabel;
        }
        Integer p = pod.getSpec() == null ? null : pod.getSpec().getPriority();
        if (p != null) {
            if (p >= 9000 && p <= 9999) {
                return PROD;
            }
            if (p >= 7000 && p <= 7999) {
                return MID;
            }
            if (p >= 5000 && p <= 5999) {
                return BATCH;
            }
            if (p >= 3000 && p <= 3999) {
                return FREE;
            }
        }
        return switch (qos(pod)) {
            case "SYSTEM", "LSE", "LSR", "LS" -> PROD;
            case "BE" -> BATCH;
            default -> NONE;
        };
    }

    /** Koordinator's QoS class: its label, else from the Kubernetes QoS class. */
    static String qos(Pod pod) {
        Map<String, String> labels =
                pod.getMetadata() == null ? null : pod.getMetadata().getLabels();
        String q = labels == null ? null : labels.get(QOS_LABEL);
        if (q != null && List.of("SYSTEM", "LSE", "LSR", "LS", "BE").contains(q)) {
            return q;
        }
        return switch (kubernetesQos(pod)) {
            case "Guaranteed" -> "LSR";
            case "Burstable" -> "LS";
            default -> "BE";
        };
    }

    /** Guaranteed: cpu and memory limits on every container, requests equal to them; BestEffort: nothing set anywhere. */
    static String kubernetesQos(Pod pod) {
        if (pod.getSpec() == null) {
            return "BestEffort";
        }
        boolean any = false;
        boolean guaranteed = true;
        List<Container> all = new ArrayList<>();
        if (pod.getSpec().getContainers() != null) {
            all.addAll(pod.getSpec().getContainers());
        }
        if (pod.getSpec().getInitContainers() != null) {
            all.addAll(pod.getSpec().getInitContainers());
        }
        for (Container c : all) {
            Map<String, Quantity> req =
                    c.getResources() == null ? null : c.getResources().getRequests();
            Map<String, Quantity> lim =
                    c.getResources() == null ? null : c.getResources().getLimits();
            if (req != null
                            && req.values().stream()
                                    .anyMatch(q -> q.getNumericalAmount().signum() != 0)
                    || lim != null
                            && lim.values().stream()
                                    .anyMatch(q -> q.getNumericalAmount().signum() != 0)) {
                any = true;
            }
            for (String r : List.of("cpu", "memory")) {
                Quantity l = lim == null ? null : lim.get(r);
                Quantity q = req == null ? null : req.get(r);
                if (l == null || l.getNumericalAmount().signum() == 0) {
                    guaranteed = false;
                } else if (q != null && q.getNumericalAmount().compareTo(l.getNumericalAmount()) != 0) {
                    guaranteed = false;
                }
            }
        }
        if (!any) {
            return "BestEffort";
        }
        return guaranteed ? "Guaranteed" : "Burstable";
    }
}
