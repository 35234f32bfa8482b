package io.hotsched.itest.plugins;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PermitPlugin;
import io.hotsched.api.framework.PermitResult;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.WaitingPod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.osgi.service.component.annotations.Component;

/**
 * A gang for tests: pods labelled {@value #GANG} wait in Permit until {@value #SIZE} members of
 * their gang have reached it, then all are allowed together. As upstream's Coscheduling, members
 * already placed (in the snapshot) count too: a gang partly allowed before the rest were rejected
 * (a drain, say) completes when the rest come back, instead of waiting for members already bound.
 */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + ItestGang.NAME)
public final class ItestGang implements PluginFactory {

    public static final String NAME = "ItestGang";
    public static final String GANG = "itest.hotsched.io/gang";
    public static final String SIZE = "itest.hotsched.io/gang-size";

    @Override
    public Plugin create(PluginArgs args, Handle handle) {
        return new PermitPlugin() {
            @Override
            public String name() {
                return NAME;
            }

            @Override
            public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
                String gang = label(pod, GANG);
                if (gang == null) {
                    return PermitResult.ALLOW;
                }
                int size = Integer.parseInt(label(pod, SIZE));
                List<WaitingPod> members = new ArrayList<>();
                Set<String> counted = new HashSet<>();
                counted.add(pod.uid());
                for (WaitingPod w : handle.waitingPods().list()) {
                    if (gang.equals(label(w.pod(), GANG))) {
                        members.add(w);
                        counted.add(w.pod().uid());
                    }
                }
                for (NodeInfo n : handle.snapshot().list()) {
                    for (PodInfo p : n.pods()) {
                        if (gang.equals(label(p, GANG))) {
                            counted.add(p.uid());
                        }
                    }
                }
                if (counted.size() < size) {
                    return PermitResult.waitFor(Duration.ofMinutes(5));
                }
                members.forEach(w -> w.allow(NAME));
                return PermitResult.ALLOW;
            }
        };
    }

    private static String label(PodInfo pod, String key) {
        Map<String, String> labels = pod.pod().getMetadata().getLabels();
        return labels == null ? null : labels.get(key);
    }
}
