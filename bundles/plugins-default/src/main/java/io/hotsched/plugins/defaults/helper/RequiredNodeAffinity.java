package io.hotsched.plugins.defaults.helper;

import io.fabric8.kubernetes.api.model.Node;
import io.hotsched.api.framework.ImmutableStateData;
import io.hotsched.api.framework.PodInfo;
import java.util.List;
import java.util.Map;

/**
 * A pod's {@code nodeSelector} and required node affinity, compiled: a node must match the
 * selector and one of the terms (no terms: any node).
 */
public record RequiredNodeAffinity(Map<String, String> nodeSelector, List<NodeSelectorTerm> terms)
        implements ImmutableStateData {

    public static RequiredNodeAffinity of(PodInfo pod) {
        var spec = pod.pod().getSpec();
        Map<String, String> selector =
                spec == null || spec.getNodeSelector() == null ? Map.of() : spec.getNodeSelector();
        var affinity = spec == null || spec.getAffinity() == null
                ? null
                : spec.getAffinity().getNodeAffinity();
        var required = affinity == null ? null : affinity.getRequiredDuringSchedulingIgnoredDuringExecution();
        return new RequiredNodeAffinity(selector, required == null ? null : NodeSelectorTerm.all(required));
    }

    public boolean matches(Node node) {
        Map<String, String> labels =
                node.getMetadata() == null || node.getMetadata().getLabels() == null
                        ? Map.of()
                        : node.getMetadata().getLabels();
        for (Map.Entry<String, String> e : nodeSelector.entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        return terms == null || anyMatches(terms, node);
    }

    public static boolean anyMatches(List<NodeSelectorTerm> terms, Node node) {
        for (NodeSelectorTerm t : terms) {
            if (t.matches(node)) {
                return true;
            }
        }
        return false;
    }
}
