package io.hotsched.itests;

import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.cluster.ClusterBackend;
import io.hotsched.api.cluster.ClusterEvents;
import io.hotsched.core.admin.ProfileView;
import io.hotsched.testing.InMemoryCluster;
import java.io.IOException;
import java.util.Map;
import org.junit.After;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.osgi.framework.ServiceRegistration;
import org.osgi.util.tracker.ServiceTracker;

/**
 * For tests that run the real scheduler in Felix against the in-memory cluster (the testing
 * bundle's): registers it as the cluster backend, connects it to the scheduler, and removes it
 * afterwards; reads the shipped plugin jars from the distribution's deploy/.
 */
public abstract class InMemoryClusterSupport extends SchedulerITSupport {

    protected InMemoryCluster cluster;
    private ServiceRegistration<ClusterBackend> backend;
    private ServiceTracker<ClusterEvents, ClusterEvents> events;

    @Override
    @Configuration
    public Option[] configuration() throws IOException {
        return PlatformOptions.platform(Map.of("scheduler.yaml", schedulerYaml()), true);
    }

    /** A new cluster, registered as the backend but not yet connected: fill it, then {@link #connect()}. */
    protected InMemoryCluster newCluster() {
        events = new ServiceTracker<>(context, ClusterEvents.class, null);
        events.open();
        cluster = new InMemoryCluster();
        backend = context.registerService(ClusterBackend.class, cluster, null);
        return cluster;
    }

    /** Connects the cluster to the scheduler: it replays what it holds, then reports synced. */
    protected void connect() throws InterruptedException {
        ClusterEvents scheduler = events.waitForService(WAIT.toMillis());
        if (scheduler == null) {
            throw new AssertionError("no scheduler (ClusterEvents service) within " + WAIT);
        }
        cluster.connect(scheduler);
    }

    @After
    public void stopCluster() {
        if (backend != null) {
            backend.unregister();
        }
        if (cluster != null) {
            cluster.close();
        }
        if (events != null) {
            events.close();
        }
    }

    protected String nodeOf(String name) {
        Pod p = cluster.pod("default", name);
        return p == null ? null : p.getSpec().getNodeName();
    }

    /** The first profile's state as {@code sched:profiles} shows it. */
    protected String profileState() {
        return admin.profiles().stream().map(ProfileView::state).findFirst().orElse("none");
    }
}
