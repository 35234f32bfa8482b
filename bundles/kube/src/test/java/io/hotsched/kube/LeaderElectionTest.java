package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hotsched.api.cluster.ClusterBackend;
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.scheduler.Scheduler;
import io.hotsched.embedded.EmbeddedApiServer;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two replicas with leader election on one API server: only the leader binds, and the other takes over. */
class LeaderElectionTest {

    /** One scheduler process: its own client, backend (counting binds), informers and election. */
    static final class Replica implements AutoCloseable {
        final AtomicInteger binds = new AtomicInteger();
        final Scheduler scheduler;
        final KubeConnection connection;
        final LeaderElection election;
        final KubernetesClient client;

        Replica(String url, String identity) throws Exception {
            this(url, identity, () -> true);
        }

        Replica(String url, String identity, BooleanSupplier mayLead) throws Exception {
            var plugins = ConnectedScheduler.simplePlugins();
            scheduler = ConnectedScheduler.newScheduler(plugins);
            client = ClientFactory.create(url, null, 16);
            KubeBackend real = new KubeBackend(client, identity);
            scheduler.setBackend(new ClusterBackend() {
                @Override
                public void bind(Pod pod, String nodeName) {
                    binds.incrementAndGet();
                    real.bind(pod, nodeName);
                }

                @Override
                public void patchPod(Pod pod, UnaryOperator<Pod> change) {
                    real.patchPod(pod, change);
                }

                @Override
                public void deletePod(Pod pod) {
                    real.deletePod(pod);
                }

                @Override
                public void recordEvent(Pod pod, String type, String reason, String message) {
                    real.recordEvent(pod, type, reason, message);
                }

                @Override
                public void markUnschedulable(Pod pod, String reason, String message, String nominated) {
                    real.markUnschedulable(pod, reason, message, nominated);
                }
            });
            scheduler.start(ConfigParser.parse(ConnectedScheduler.config(plugins), "s.yaml"));
            election = new LeaderElection(
                    client,
                    scheduler.events(),
                    new Lease(
                            "kube-system",
                            "hotsched",
                            identity,
                            Duration.ofSeconds(3),
                            Duration.ofSeconds(2),
                            Duration.ofMillis(200)),
                    mayLead);
            election.start();
            connection = new KubeConnection(client, scheduler.events());
            connection.start();
        }

        @Override
        public void close() {
            election.close();
            connection.close();
            scheduler.close();
            client.close();
        }
    }

    private EmbeddedApiServer server;

    @AfterEach
    void stop() {
        server.close();
    }

    private static void await(String what, BooleanSupplier c) throws InterruptedException {
        Await.until(what, 30, c);
    }

    private long bound() {
        return server.client().pods().inNamespace("default").list().getItems().stream()
                .filter(p -> p.getSpec().getNodeName() != null)
                .count();
    }

    private void createPods(int from, int to) {
        for (int i = from; i < to; i++) {
            server.client()
                    .pods()
                    .resource(Pods.pod("p" + i).cpu("100m").build())
                    .create();
        }
    }

    /**
     * Issue 21: a standby that has not installed its SchedulerPlugin bundles (its gate says no)
     * does not take the lease when the leader goes, though it asks again every retry period; it
     * competes, and leads, once the gate opens.
     */
    @Test
    void aReplicaWithoutTheFleetsBundlesDoesNotTakeTheLease() throws Exception {
        server = new EmbeddedApiServer().start(0);
        AtomicBoolean installed = new AtomicBoolean();
        AtomicInteger asked = new AtomicInteger();
        try (Replica gated = new Replica(server.url(), "replica-gated", () -> {
                    asked.incrementAndGet();
                    return installed.get();
                });
                Replica other = new Replica(server.url(), "replica-other")) {
            await("the other leads", () -> other.scheduler.isLeading());
            other.election.close();
            await("the other stopped leading", () -> !other.scheduler.isLeading());
            int before = asked.get();
            // 20 retry periods of 200 ms: past the 3 s lease duration, so the lease was free to take
            await("the gated replica asked its gate again and again", () -> asked.get() >= before + 20);
            assertTrue(!holder().equals("replica-gated"), "lease held by " + holder());
            assertTrue(!gated.scheduler.isLeading());

            installed.set(true);
            await("the gated replica leads once its bundles are installed", () -> gated.scheduler.isLeading());
            assertEquals("replica-gated", holder());
        }
    }

    private String holder() {
        var l = server.client()
                .leases()
                .inNamespace("kube-system")
                .withName("hotsched")
                .get();
        String h = l == null ? null : l.getSpec().getHolderIdentity();
        return h == null ? "" : h;
    }

    @Test
    void onlyTheLeaderBindsAndTheOtherTakesOver() throws Exception {
        server = new EmbeddedApiServer().start(0);
        server.client().nodes().resource(Nodes.node("n1").cpu("64").build()).create();
        try (Replica a = new Replica(server.url(), "replica-a");
                Replica b = new Replica(server.url(), "replica-b")) {
            await("a leader", () -> a.scheduler.isLeading() != b.scheduler.isLeading());
            Replica leader = a.scheduler.isLeading() ? a : b;
            Replica follower = leader == a ? b : a;
            createPods(0, 10);
            await("10 bound", () -> bound() == 10);
            assertEquals(10, leader.binds.get());
            assertEquals(0, follower.binds.get(), "the follower never binds");

            leader.election.close();
            await("the follower leads", () -> follower.scheduler.isLeading());
            assertTrue(!leader.scheduler.isLeading());
            createPods(10, 15);
            await("15 bound", () -> bound() == 15);
            assertEquals(10, leader.binds.get(), "the old leader stopped at once");
            assertEquals(5, follower.binds.get());
        }
    }
}
