package io.hotsched.plugins.defaults.schedulinggates;

import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreEnqueuePlugin;
import io.hotsched.api.framework.Status;
import java.util.List;

/** Keeps a pod out of the active queue while it has {@code spec.schedulingGates}. */
public final class SchedulingGates implements PreEnqueuePlugin, EnqueueExtensions {

    public static final String NAME = "SchedulingGates";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status preEnqueue(PodInfo pod) {
        List<PodSchedulingGate> gates =
                pod.pod().getSpec() == null ? null : pod.pod().getSpec().getSchedulingGates();
        if (gates == null || gates.isEmpty()) {
            return Status.SUCCESS;
        }
        StringBuilder names = new StringBuilder("[");
        for (int i = 0; i < gates.size(); i++) {
            names.append(i == 0 ? "" : " ").append(gates.get(i).getName());
        }
        return Status.unresolvable("waiting for scheduling gates: " + names.append(']'));
    }

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return List.of(ClusterEventWithHint.of(ClusterEvent.of(ClusterEvent.POD, ActionType.UPDATE)));
    }
}
