package io.hotsched.core.scheduler;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import org.junit.jupiter.api.Test;

/**
 * A node whose allocatable is not a quantity (kube-apiserver refuses it; another server or a
 * webhook may not) is left out of the cache, as if deleted, rather than kept half read with no
 * allocatable; once it is corrected the pods waiting for it are placed.
 */
class UnreadableNodeTest {

    @Test
    void aNodeThatCannotBeReadTakesNoPodUntilItIsCorrected() throws Exception {
        try (SchedulerFixture f = new SchedulerFixture().withBasePlugins()) {
            f.cluster.addNode(Nodes.node("n1").cpu("4").build());
            f.cluster.addNode(Nodes.node("bad").cpu("4").memory("lots").build());
            f.start(SchedulerFixture.BASE);
            f.cluster.addPod(Pods.pod("p").cpu("100m").build());
            await("p bound", () -> f.cluster.bindings().size() == 1);
            assertEquals("n1", f.cluster.bindings().get(0).nodeName());
            assertNull(f.scheduler.cache().node("bad"), "the unreadable node is not in the cache");

            f.cluster.updateNode(Nodes.node("bad").cpu("4").memory("8Gi").build());
            await("the corrected node in the cache", () -> f.scheduler.cache().node("bad") != null);
            assertEquals(4000, f.scheduler.cache().node("bad").allocatable().milliCpu());
        }
    }
}
