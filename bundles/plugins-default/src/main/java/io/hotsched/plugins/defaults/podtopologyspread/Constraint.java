package io.hotsched.plugins.defaults.podtopologyspread;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.hotsched.api.framework.LabelSelector;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.plugins.defaults.helper.RequiredNodeAffinity;
import io.hotsched.plugins.defaults.helper.Taints;
import java.util.List;
import java.util.Map;

/**
 * One topology spread constraint, compiled: which pods count (selector, in the incoming pod's
 * namespace), over which key, how much skew is allowed, and which nodes take part.
 *
 * @param honorNodeAffinity nodeAffinityPolicy Honor: only nodes the pod's required node affinity admits
 * @param honorNodeTaints nodeTaintsPolicy Honor: only nodes without taints the pod does not tolerate
 */
record Constraint(
        int maxSkew,
        String topologyKey,
        LabelSelector selector,
        int minDomains,
        boolean honorNodeAffinity,
        boolean honorNodeTaints) {

    /** Whether {@code node} takes part in spreading for this constraint. */
    boolean includes(PodInfo pod, Node node, RequiredNodeAffinity affinity) {
        if (honorNodeAffinity && !affinity.matches(node)) {
            return false;
        }
        if (honorNodeTaints) {
            List<Taint> taints = node.getSpec() == null ? null : node.getSpec().getTaints();
            var tolerations =
                    pod.pod().getSpec() == null ? null : pod.pod().getSpec().getTolerations();
            return taints == null
                    || Taints.firstUntolerated(
                                    taints,
                                    tolerations == null ? List.of() : tolerations,
                                    t -> "NoSchedule".equals(t.getEffect()) || "NoExecute".equals(t.getEffect()))
                            == null;
        }
        return true;
    }

    /** The pods of {@code pods} this constraint counts: same namespace, not terminating, selected. */
    int count(List<PodInfo> pods, String namespace) {
        int n = 0;
        for (int pI = 0, pN = pods.size(); pI < pN; pI++) {
            PodInfo p = pods.get(pI);
            // cheapest test first: the deletion timestamp is two loads further away than the labels
            if (p.namespace().equals(namespace)
                    && selector.matches(p.labels())
                    && p.pod().getMetadata().getDeletionTimestamp() == null) {
                n++;
            }
        }
        return n;
    }

    static boolean hasAllKeys(Map<String, String> labels, List<Constraint> constraints) {
        for (int cI = 0, cN = constraints.size(); cI < cN; cI++) {
            Constraint c = constraints.get(cI);
            if (!labels.containsKey(c.topologyKey())) {
                return false;
            }
        }
        return true;
    }
}
