package io.hotsched.core.scheduler;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** What kind of update an old/new pair of objects is, in {@link ActionType} terms. */
final class EventKinds {

    private EventKinds() {}

    static List<ActionType> nodeUpdate(Node oldNode, Node newNode) {
        List<ActionType> out = new ArrayList<>();
        if (oldNode == null) {
            out.add(ActionType.ADD);
            return out;
        }
        if (!Objects.equals(
                oldNode.getStatus() == null ? null : oldNode.getStatus().getAllocatable(),
                newNode.getStatus() == null ? null : newNode.getStatus().getAllocatable())) {
            out.add(ActionType.UPDATE_NODE_ALLOCATABLE);
        }
        if (!Objects.equals(
                oldNode.getMetadata().getLabels(), newNode.getMetadata().getLabels())) {
            out.add(ActionType.UPDATE_NODE_LABEL);
        }
        boolean oldUnsched = oldNode.getSpec() != null
                && Boolean.TRUE.equals(oldNode.getSpec().getUnschedulable());
        boolean newUnsched = newNode.getSpec() != null
                && Boolean.TRUE.equals(newNode.getSpec().getUnschedulable());
        if (!Objects.equals(
                        oldNode.getSpec() == null ? null : oldNode.getSpec().getTaints(),
                        newNode.getSpec() == null ? null : newNode.getSpec().getTaints())
                || oldUnsched != newUnsched) {
            out.add(ActionType.UPDATE_NODE_TAINT);
        }
        if (!Objects.equals(
                oldNode.getStatus() == null ? null : oldNode.getStatus().getConditions(),
                newNode.getStatus() == null ? null : newNode.getStatus().getConditions())) {
            out.add(ActionType.UPDATE_NODE_CONDITION);
        }
        if (out.isEmpty()) {
            out.add(ActionType.UPDATE);
        }
        return out;
    }

    static List<ActionType> podUpdate(Pod oldPod, Pod newPod) {
        List<ActionType> out = new ArrayList<>();
        if (!Objects.equals(
                oldPod.getMetadata().getLabels(), newPod.getMetadata().getLabels())) {
            out.add(ActionType.UPDATE_POD_LABEL);
        }
        Resource before = PodInfo.of(oldPod).requests();
        Resource after = PodInfo.of(newPod).requests();
        String phase = newPod.getStatus() == null ? null : newPod.getStatus().getPhase();
        if ("Succeeded".equals(phase)
                || "Failed".equals(phase)
                || after.milliCpu() < before.milliCpu()
                || after.memory() < before.memory()) {
            out.add(ActionType.UPDATE_POD_SCALE_DOWN);
        }
        if (out.isEmpty()) {
            out.add(ActionType.UPDATE);
        }
        return out;
    }
}
