package io.hotsched.api.framework;

import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A pod (anti-)affinity term, compiled: which pods it selects (label selector with
 * {@code matchLabelKeys}/{@code mismatchLabelKeys} folded in, namespaces, namespace selector) and
 * over which topology key. The namespaces default to the owning pod's, as upstream; an empty name
 * in {@code namespaces} means {@code default}, as for {@link PodInfo#namespace()}.
 *
 * @param weight the term's weight for preferred terms; 0 for required ones
 */
public record AffinityTerm(
        Set<String> namespaces,
        LabelSelector selector,
        LabelSelector namespaceSelector,
        String topologyKey,
        int weight) {

    static AffinityTerm of(PodAffinityTerm t, String podNamespace, Map<String, String> podLabels, int weight) {
        LabelSelector selector = LabelSelector.of(t.getLabelSelector());
        List<LabelSelector.Requirement> extra = new ArrayList<>();
        if (t.getMatchLabelKeys() != null) {
            for (String k : t.getMatchLabelKeys()) {
                String v = podLabels.get(k);
                if (v != null) {
                    extra.add(new LabelSelector.Requirement(k, "In", Set.of(v)));
                }
            }
        }
        if (t.getMismatchLabelKeys() != null) {
            for (String k : t.getMismatchLabelKeys()) {
                String v = podLabels.get(k);
                if (v != null) {
                    extra.add(new LabelSelector.Requirement(k, "NotIn", Set.of(v)));
                }
            }
        }
        selector = selector.and(extra);
        Set<String> ns = Set.of();
        if (t.getNamespaces() != null && !t.getNamespaces().isEmpty()) {
            // an empty name means the default namespace, as for a pod (PodInfo#namespace)
            ns = t.getNamespaces().stream()
                    .map(n -> n == null || n.isEmpty() ? "default" : n)
                    .collect(Collectors.toUnmodifiableSet());
        }
        LabelSelector nsSelector = LabelSelector.of(t.getNamespaceSelector());
        if (ns.isEmpty() && nsSelector.matchesNothing()) {
            ns = Set.of(podNamespace);
        }
        return new AffinityTerm(ns, selector, nsSelector, t.getTopologyKey(), weight);
    }

    /**
     * Whether the term selects {@code pod}: its namespace is listed or matched by the namespace
     * selector ({@code namespaceLabels} are the labels of the pod's namespace), and its labels
     * match.
     */
    public boolean matches(PodInfo pod, Map<String, String> namespaceLabels) {
        boolean inNamespace = namespaces.contains(pod.namespace()) || namespaceSelector.matches(namespaceLabels);
        return inNamespace && selector.matches(pod.labels());
    }
}
