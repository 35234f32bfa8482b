package io.hotsched.core.scheduler;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.framework.Handle;
import io.hotsched.core.queue.QueueEntry;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.core.support.TestPlugins;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import io.hotsched.testing.SimplePlugins;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Plugins read the listed kinds the cluster connection reports through {@link Handle#listers()},
 * and a change of such an object requeues the pods it may help as a cluster event of its kind,
 * refined by the plugin's queueing hint.
 */
class ListersTest {

    private final SchedulerFixture f = new SchedulerFixture();

    @AfterEach
    void close() {
        f.close();
    }

    private static PersistentVolumeClaim claim(String name) {
        return new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .endMetadata()
                .build();
    }

    private static Pod podWithClaim(String claim) {
        return Pods.pod("p").cpu("100m").claim(claim).build();
    }

    @Test
    void aClaimThatArrivesRequeuesThePodWaitingForItAndAnotherDoesNot() throws Exception {
        f.withBasePlugins();
        f.add("VolumeBinding", TestPlugins.factory(SimplePlugins.ClaimsExist::new), "1.0.0");
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addPod(podWithClaim("data-p"));
        f.start(SchedulerFixture.withPlugins("VolumeBinding"));
        f.awaitQueued("default/p", "0/1 nodes are available: 1 persistentvolumeclaim \"data-p\" not found.");

        f.cluster.putObject("PersistentVolumeClaim", claim("other"));
        f.cluster.awaitDelivered();
        QueueEntry waiting = entry("default/p");
        assertEquals("unschedulable", waiting.queue(), "a claim of another name leaves the pod where it is");
        assertEquals(1, waiting.attempts());

        f.cluster.putObject("PersistentVolumeClaim", claim("data-p"));
        await("p bound", () -> f.cluster.bindings().size() == 1);
        assertEquals("n1", f.cluster.bindings().get(0).nodeName());
        assertNull(entry("default/p"));
    }

    private QueueEntry entry(String key) {
        return f.scheduler.queue().entries().stream()
                .filter(e -> e.podKey().equals(key))
                .findFirst()
                .orElse(null);
    }
}
