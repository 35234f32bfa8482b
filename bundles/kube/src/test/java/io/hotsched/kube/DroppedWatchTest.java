package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hotsched.embedded.EmbeddedApiServer;
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

    private EmbeddedApiServer server;
    private CuttableProxy proxy;
    private KubernetesClient client;
    private ConnectedScheduler scheduler;

    @BeforeEach
    void start() throws Exception {
        server = new EmbeddedApiServer().start(0);
        client = server.client();
        client.nodes().resource(Nodes.node("n1").cpu("2").build()).create();
        proxy = new CuttableProxy(server.port());
        scheduler = new ConnectedScheduler(proxy.url(), ConnectedScheduler.simplePlugins(), LeaderElectionTest.CONFIG);
    }

    @AfterEach
    void stop() throws Exception {
        scheduler.close();
        proxy.close();
        server.close();
    }

    private static void await(String what, BooleanSupplier c) throws InterruptedException {
        Await.until(what, 60, c);
    }

    private String nodeOf(String name) {
        Pod p = client.pods().inNamespace("default").withName(name).get();
        return p == null ? null : p.getSpec().getNodeName();
    }

    @Test
    void whatHappensWhileTheWatchesAreDownIsSeenAfterReconnecting() throws Exception {
        client.pods().resource(Pods.pod("before").cpu("1500m").build()).create();
        await("before bound", () -> "n1".equals(nodeOf("before")));

        proxy.cut();
        // while the scheduler sees nothing: a new node, a new pod that fits only there, and the
        // deletion of the pod that filled n1
        client.nodes().resource(Nodes.node("n2").cpu("4").build()).create();
        client.pods().resource(Pods.pod("during").cpu("3").build()).create();
        client.pods().inNamespace("default").withName("before").delete();
        // short, so the client's reconnect backoff stays short too
        Thread.sleep(300);
        assertEquals(null, nodeOf("during"), "nothing is bound while the scheduler is cut off");
        proxy.restore();

        await("during bound to the node created while cut off", () -> "n2".equals(nodeOf("during")));
        // n1's 2 cpu are free again only if the deletion was seen too
        client.pods().resource(Pods.pod("after").cpu("1500m").build()).create();
        await("after bound to n1, freed while cut off", () -> "n1".equals(nodeOf("after")));
    }
}
