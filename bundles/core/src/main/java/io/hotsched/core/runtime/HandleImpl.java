package io.hotsched.core.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.hotsched.api.framework.ClusterClient;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.Extender;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Listers;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.Parallelizer;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Reservations;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.WaitingPods;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/** The handle of one framework: its plugins run through the framework that created them. */
final class HandleImpl implements Handle {

    private final String profileName;
    private final FrameworkServices services;
    private final WaitingPodsImpl waitingPods;
    private volatile FrameworkImpl framework;

    HandleImpl(String profileName, FrameworkServices services, WaitingPodsImpl waitingPods) {
        this.profileName = profileName;
        this.services = services;
        this.waitingPods = waitingPods;
    }

    void bind(FrameworkImpl f) {
        this.framework = f;
    }

    @Override
    public String profileName() {
        return profileName;
    }

    @Override
    public NodeInfoLister snapshot() {
        return services.snapshot().get();
    }

    @Override
    public Map<String, String> namespaceLabels(String namespace) {
        return services.objects().namespaceLabels(namespace);
    }

    @Override
    public HasMetadata object(String kind, String namespace, String name) {
        return services.objects().get(kind, namespace, name);
    }

    @Override
    public Listers listers() {
        return services.objects();
    }

    @Override
    public Reservations reservations() {
        return services.reservations();
    }

    @Override
    public boolean featureEnabled(String gate) {
        return services.hooks().features().test(gate);
    }

    @Override
    public void activate(PodInfo pod) {
        services.hooks().activate().accept(pod);
    }

    @Override
    public Executor background() {
        return services.hooks().background();
    }

    @Override
    public Clock clock() {
        return Clock.systemUTC();
    }

    @Override
    public List<HasMetadata> objects(String kind) {
        return services.objects().list(kind);
    }

    @Override
    public ClusterClient cluster() {
        return services.cluster();
    }

    @Override
    public WaitingPods waitingPods() {
        return waitingPods;
    }

    @Override
    public Parallelizer parallelizer() {
        return services.parallelizer();
    }

    @Override
    public Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node) {
        return framework().runFilterPluginsWithNominatedPods(state, pod, node);
    }

    @Override
    public Status runPreFilterExtensionAddPod(
            CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
        return framework().runPreFilterExtensionAddPod(state, podToSchedule, podToAdd, node);
    }

    @Override
    public Status runPreFilterExtensionRemovePod(
            CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
        return framework().runPreFilterExtensionRemovePod(state, podToSchedule, podToRemove, node);
    }

    @Override
    public List<PodInfo> nominatedPodsForNode(String nodeName) {
        return services.nominatedPods().apply(nodeName);
    }

    @Override
    public List<Extender> extenders() {
        return framework().extenders().asApi();
    }

    private FrameworkImpl framework() {
        FrameworkImpl f = framework;
        if (f == null) {
            throw new IllegalStateException("the framework of profile " + profileName + " is still being built");
        }
        return f;
    }
}
