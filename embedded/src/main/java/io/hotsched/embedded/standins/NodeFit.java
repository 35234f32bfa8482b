package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;

/**
 * Whether a DaemonSet's pod belongs on a node, as upstream's DaemonSet controller decides it: the
 * pod's node selector and required node affinity match the node, and every NoSchedule and
 * NoExecute taint is tolerated ({@link #shouldRun}); a pod already there stays while only its
 * NoExecute taints are tolerated ({@link #shouldContinueRunning}).
 */
final class NodeFit {

    private NodeFit() {}

    static boolean shouldRun(PodSpec pod, Node node) {
        return selected(pod, node) && tolerated(pod, node, false);
    }

    static boolean shouldContinueRunning(PodSpec pod, Node node) {
        return selected(pod, node) && tolerated(pod, node, true);
    }

    private static boolean selected(PodSpec pod, Node node) {
        Map<String, String> labels = node.getMetadata().getLabels() == null
                ? Map.of()
                : node.getMetadata().getLabels();
        if (pod.getNodeSelector() != null) {
            for (Map.Entry<String, String> e : pod.getNodeSelector().entrySet()) {
                if (!e.getValue().equals(labels.get(e.getKey()))) {
                    return false;
                }
            }
        }
        if (pod.getAffinity() == null
                || pod.getAffinity().getNodeAffinity() == null
                || pod.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
            return true;
        }
        List<NodeSelectorTerm> terms = pod.getAffinity()
                .getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms();
        for (NodeSelectorTerm t : terms) {
            boolean empty =
                    (t.getMatchExpressions() == null || t.getMatchExpressions().isEmpty())
                            && (t.getMatchFields() == null || t.getMatchFields().isEmpty());
            if (!empty
                    && all(t.getMatchExpressions(), labels)
                    && all(
                            t.getMatchFields(),
                            Map.of("metadata.name", node.getMetadata().getName()))) {
                return true;
            }
        }
        return false;
    }

    private static boolean all(List<NodeSelectorRequirement> requirements, Map<String, String> values) {
        if (requirements == null) {
            return true;
        }
        for (NodeSelectorRequirement r : requirements) {
            String v = values.get(r.getKey());
            List<String> want = r.getValues() == null ? List.of() : r.getValues();
            // Gt and Lt are node selectors' own
            boolean ok = switch (r.getOperator()) {
                case "Gt" -> compare(v, want) > 0;
                case "Lt" -> compare(v, want) < 0;
                default -> SetOperators.holds(r.getOperator(), v, want);
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** {@code v} against the one integer of {@code want}; 0 (no match) when either is not an integer. */
    private static int compare(String v, List<String> want) {
        try {
            return want.size() == 1 && v != null ? Long.compare(Long.parseLong(v), Long.parseLong(want.get(0))) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static boolean tolerated(PodSpec pod, Node node, boolean noExecuteOnly) {
        if (node.getSpec() == null || node.getSpec().getTaints() == null) {
            return true;
        }
        List<Toleration> tolerations = pod.getTolerations() == null ? List.of() : pod.getTolerations();
        for (Taint taint : node.getSpec().getTaints()) {
            boolean counts =
                    "NoExecute".equals(taint.getEffect()) || !noExecuteOnly && "NoSchedule".equals(taint.getEffect());
            if (counts && tolerations.stream().noneMatch(t -> tolerates(t, taint))) {
                return false;
            }
        }
        return true;
    }

    static boolean tolerates(Toleration t, Taint taint) {
        if (t.getEffect() != null && !t.getEffect().isEmpty() && !t.getEffect().equals(taint.getEffect())) {
            return false;
        }
        if (t.getKey() == null || t.getKey().isEmpty()) {
            return "Exists".equals(t.getOperator());
        }
        if (!t.getKey().equals(taint.getKey())) {
            return false;
        }
        if ("Exists".equals(t.getOperator())) {
            return true;
        }
        String value = t.getValue() == null ? "" : t.getValue();
        return value.equals(taint.getValue() == null ? "" : taint.getValue());
    }
}
