package io.hotsched.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/** The run report: each pod of our profiles with its node, or why it is pending. */
final class PodTable {

    static final String DEVICE_ALLOCATED = "scheduling.koordinator.sh/device-allocated";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private PodTable() {}

    /**
     * @param profiles the scheduler names we serve
     * @param queueReasons the scheduler's last failure per pod key, for pods without a condition yet
     */
    static String render(List<Pod> pods, Set<String> profiles, Map<String, String> queueReasons) {
        List<Pod> ours = pods.stream()
                .filter(p -> profiles.contains(schedulerName(p)))
                .sorted(Comparator.comparing(KubeBackend::key))
                .toList();
        int w = Math.max(
                3,
                ours.stream().mapToInt(p -> KubeBackend.key(p).length()).max().orElse(3));
        int nw = Math.max(
                4,
                ours.stream()
                        .mapToInt(p -> String.valueOf(p.getSpec().getNodeName()).length())
                        .max()
                        .orElse(4));
        StringBuilder b = new StringBuilder();
        b.append(pad("POD", w)).append("  ").append(pad("NODE", nw)).append("  STATUS\n");
        int bound = 0;
        for (Pod p : ours) {
            String node = p.getSpec().getNodeName();
            String status;
            if (node != null && !node.isEmpty()) {
                bound++;
                status = "bound" + devices(p);
            } else {
                String why = condition(p);
                if (why == null) {
                    why = queueReasons.getOrDefault(KubeBackend.key(p), "waiting to be scheduled");
                }
                status = "pending: " + why;
                node = "-";
            }
            b.append(pad(KubeBackend.key(p), w))
                    .append("  ")
                    .append(pad(node, nw))
                    .append("  ")
                    .append(status)
                    .append('\n');
        }
        b.append(bound).append(" of ").append(ours.size()).append(" pods bound\n");
        return b.toString();
    }

    /** Koordinator's device-allocated annotation, when a plugin wrote one: ", devices gpu 0+1, rdma 2". */
    static String devices(Pod p) {
        Map<String, String> annotations =
                p.getMetadata() == null ? null : p.getMetadata().getAnnotations();
        String text = annotations == null ? null : annotations.get(DEVICE_ALLOCATED);
        if (text == null) {
            return "";
        }
        try {
            StringBuilder b = new StringBuilder();
            JSON.readTree(text).properties().forEach(type -> {
                b.append(b.length() == 0 ? ", devices " : ", ")
                        .append(type.getKey())
                        .append(' ');
                StringBuilder minors = new StringBuilder();
                type.getValue()
                        .forEach(d -> minors.append(minors.length() == 0 ? "" : "+")
                                .append(d.path("minor").asInt()));
                b.append(minors);
            });
            return b.toString();
        } catch (JacksonException e) {
            return ", devices unreadable";
        }
    }

    private static String condition(Pod p) {
        if (p.getStatus() == null || p.getStatus().getConditions() == null) {
            return null;
        }
        for (PodCondition c : p.getStatus().getConditions()) {
            if ("PodScheduled".equals(c.getType()) && "False".equals(c.getStatus())) {
                return c.getMessage();
            }
        }
        return null;
    }

    static String schedulerName(Pod p) {
        String s = p.getSpec() == null ? null : p.getSpec().getSchedulerName();
        return s == null || s.isEmpty() ? "default-scheduler" : s;
    }

    private static String pad(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }
}
