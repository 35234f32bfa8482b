package io.hotsched.plugins.defaults.podtopologyspread;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.LabelSelector;
import io.hotsched.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The selector default constraints spread by: the requirements of every Service,
 * ReplicationController, ReplicaSet and StatefulSet of the pod's namespace that selects it, ANDed.
 * Empty when nothing selects the pod.
 */
final class DefaultSelector {

    private DefaultSelector() {}

    static List<LabelSelector.Requirement> of(PodInfo pod, Handle handle) {
        List<LabelSelector.Requirement> reqs = new ArrayList<>();
        Map<String, String> labels = pod.labels();
        for (HasMetadata o : handle.objects("Service")) {
            if (o instanceof Service s
                    && sameNamespace(o, pod)
                    && s.getSpec() != null
                    && s.getSpec().getSelector() != null
                    && selects(s.getSpec().getSelector(), labels)) {
                s.getSpec()
                        .getSelector()
                        .forEach((k, v) -> reqs.add(new LabelSelector.Requirement(k, "In", Set.of(v))));
            }
        }
        for (HasMetadata o : handle.objects("ReplicationController")) {
            if (o instanceof ReplicationController rc
                    && sameNamespace(o, pod)
                    && rc.getSpec() != null
                    && rc.getSpec().getSelector() != null
                    && !rc.getSpec().getSelector().isEmpty()
                    && selects(rc.getSpec().getSelector(), labels)) {
                rc.getSpec()
                        .getSelector()
                        .forEach((k, v) -> reqs.add(new LabelSelector.Requirement(k, "In", Set.of(v))));
            }
        }
        for (HasMetadata o : handle.objects("ReplicaSet")) {
            if (o instanceof ReplicaSet rs && sameNamespace(o, pod) && rs.getSpec() != null) {
                addIfSelects(reqs, rs.getSpec().getSelector(), labels);
            }
        }
        for (HasMetadata o : handle.objects("StatefulSet")) {
            if (o instanceof StatefulSet ss && sameNamespace(o, pod) && ss.getSpec() != null) {
                addIfSelects(reqs, ss.getSpec().getSelector(), labels);
            }
        }
        return reqs;
    }

    /** A controller with a nil or empty selector selects nothing, not everything. */
    private static void addIfSelects(
            List<LabelSelector.Requirement> reqs,
            io.fabric8.kubernetes.api.model.LabelSelector s,
            Map<String, String> labels) {
        LabelSelector sel = LabelSelector.of(s);
        if (!sel.matchesNothing() && !sel.matchesEverything() && sel.matches(labels)) {
            reqs.addAll(sel.requirements());
        }
    }

    private static boolean selects(Map<String, String> selector, Map<String, String> labels) {
        for (Map.Entry<String, String> e : selector.entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameNamespace(HasMetadata o, PodInfo pod) {
        String ns = o.getMetadata() == null ? null : o.getMetadata().getNamespace();
        return (ns == null || ns.isEmpty() ? "default" : ns).equals(pod.namespace());
    }
}
