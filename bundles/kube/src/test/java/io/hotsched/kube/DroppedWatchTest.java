package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's connection goes through a proxy that drops every connection: pods and nodes
 * created and deleted while its watches are down are seen once it reconnects, so nothing that
 * happened meanwhile is lost.
 */
class DroppedWatchTest {

    private ApiServerFixture api;
    private CuttableProxy proxy;

    @BeforeEach
    void start() throws Exception {
        api = new ApiServerFixture(Nodes.node("n1").cpu("2").build());
        proxy = new CuttableProxy(api.server.port());
        var plugins = ConnectedScheduler.simplePlugins();
        api.connect(proxy.url(), plugins, ConnectedScheduler.config(plugins));
    }

    @AfterEach
    void stop() throws Exception {
        api.close();
        proxy.close();
    }

    private static void await(String what, BooleanSupplier c) throws InterruptedException {
        Await.until(what, 60, c);
    }

    @Test
    void whatHappensWhileTheWatchesAreDownIsSeenAfterReconnecting() throws Exception {
        api.create(Pods.pod("before").cpu("1500m").build());
        await("before bound", () -> "n1".equals(api.nodeOf("before")));

        proxy.cut();
        // while the scheduler sees nothing: a new node, a new pod that fits only there, and the
        // deletion of the pod that filled n1
        api.create(Nodes.node("n2").cpu("4").build());
        api.create(Pods.pod("during").cpu("3").build());
        api.delete("before");
        // the scheduler has tried to reach the API server again and was turned away
        await("a reconnect refused", () -> proxy.refused() > 0);
        assertEquals(null, api.nodeOf("during"), "nothing is bound while the scheduler is cut off");
        proxy.restore();

        await("during bound to the node created while cut off", () -> "n2".equals(api.nodeOf("during")));
        // n1's 2 cpu are free again only if the deletion was seen too
        api.create(Pods.pod("after").cpu("1500m").build());
        await("after bound to n1, freed while cut off", () -> "n1".equals(api.nodeOf("after")));
    }
}
