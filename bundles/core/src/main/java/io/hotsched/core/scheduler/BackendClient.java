package io.hotsched.core.scheduler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.cluster.ClusterBackend;
import io.hotsched.api.framework.ClusterClient;
import io.hotsched.api.framework.ClusterException;
import io.hotsched.api.framework.PodInfo;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/** Plugins' cluster operations, carried out by whichever cluster backend is connected. */
final class BackendClient implements ClusterClient {

    private final Supplier<ClusterBackend> backend;

    BackendClient(Supplier<ClusterBackend> backend) {
        this.backend = backend;
    }

    private ClusterBackend backend() {
        ClusterBackend b = backend.get();
        if (b == null) {
            throw new ClusterException("no cluster connection", 0);
        }
        return b;
    }

    @Override
    public void bind(PodInfo pod, String nodeName) {
        backend().bind(pod.pod(), nodeName);
    }

    @Override
    public void patchPod(PodInfo pod, UnaryOperator<Pod> change) {
        backend().patchPod(pod.pod(), change);
    }

    @Override
    public void patchPodStatus(PodInfo pod, UnaryOperator<Pod> change) {
        backend().patchPodStatus(pod.pod(), change);
    }

    @Override
    public void deletePod(PodInfo pod, String reason) {
        backend().recordEvent(pod.pod(), "Normal", "Preempted", reason);
        backend().deletePod(pod.pod());
    }

    @Override
    public void recordEvent(PodInfo pod, String type, String reason, String message) {
        backend().recordEvent(pod.pod(), type, reason, message);
    }

    @Override
    public <T extends HasMetadata> T update(T object) {
        return backend().update(object);
    }

    @Override
    public <T extends HasMetadata> T updateStatus(T object) {
        return backend().updateStatus(object);
    }
}
