package io.hotsched.core.scheduler;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreBindPlugin;
import io.hotsched.api.framework.Status;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A PreBind plugin that answers Wait is asked again later and holds no binding slot meanwhile: with
 * one binding thread, a pod behind the waiting one is bound first; the waiting one is bound once
 * the plugin lets it through.
 */
class PreBindWaitTest {

    private final SchedulerFixture f =
            new SchedulerFixture(new SchedulerOptions(1, Duration.ofSeconds(30), Duration.ofSeconds(5), 3, 1000));
    private final AtomicBoolean released = new AtomicBoolean();
    private final AtomicInteger asked = new AtomicInteger();

    @AfterEach
    void close() {
        f.close();
    }

    private final class WaitsForRelease implements PreBindPlugin {
        @Override
        public String name() {
            return "VolumeBinding";
        }

        @Override
        public Status preBind(CycleState state, PodInfo pod, String nodeName) {
            if (!pod.name().equals("slow")) {
                return Status.SUCCESS;
            }
            asked.incrementAndGet();
            return released.get() ? Status.SUCCESS : Status.of(Code.WAIT);
        }
    }

    @Test
    void aWaitingPreBindHoldsNoSlotAndIsAskedAgain() throws Exception {
        f.withBasePlugins();
        f.add(new WaitsForRelease());
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addPod(Pods.pod("slow").cpu("100m").build());
        f.start(SchedulerFixture.withPlugins("VolumeBinding"));
        await("slow asked again", () -> asked.get() >= 2);
        f.cluster.addPod(Pods.pod("fast").cpu("100m").build());
        await(
                "fast bound",
                () -> f.cluster.bindings().stream().anyMatch(b -> b.podKey().equals("default/fast")));
        assertTrue(f.cluster.bindings().stream().noneMatch(b -> b.podKey().equals("default/slow")), "slow still waits");

        released.set(true);
        await("slow bound", () -> f.cluster.bindings().size() == 2);
        assertEquals("n1", f.cluster.bindings().get(1).nodeName());
    }
}
