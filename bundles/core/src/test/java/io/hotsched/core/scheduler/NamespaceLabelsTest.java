package io.hotsched.core.scheduler;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.hotsched.api.framework.Status;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.core.support.TestPlugins;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.OnePoint;
import io.hotsched.testing.Pods;
import io.hotsched.testing.SimplePlugins;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Plugins see the labels of the namespaces the cluster connection reports, as they change. */
class NamespaceLabelsTest {

    private final SchedulerFixture f = new SchedulerFixture();
    private final List<Map<String, String>> seen = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        f.close();
    }

    private static Namespace ns(String name, Map<String, String> labels) {
        return new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .build();
    }

    @Test
    void namespaceLabelsFollowTheClusterEvents() throws Exception {
        f.add("PrioritySort", TestPlugins.factory(h -> new SimplePlugins.Sort()), "1.0.0");
        // in NodeResourcesFit's place: lets every node through and notes the labels of the pod's namespace
        f.add(
                "NodeResourcesFit",
                TestPlugins.factory(h -> new OnePoint.Filter("NodeResourcesFit", (state, pod, node) -> {
                    seen.add(h.namespaceLabels(pod.namespace()));
                    return Status.SUCCESS;
                })),
                "1.0.0");
        f.add("DefaultBinder", TestPlugins.factory(SimplePlugins.Binder::new), "1.0.0");
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.start(SchedulerFixture.BASE);
        f.scheduler.events().objectChanged("Namespace", null, ns("team-a", Map.of("team", "a")));
        f.cluster.addPod(Pods.pod("p1").namespace("team-a").build());
        await("p1 bound", () -> f.cluster.bindings().size() == 1);
        assertEquals(Map.of("team", "a"), seen.get(seen.size() - 1));

        f.scheduler
                .events()
                .objectChanged("Namespace", ns("team-a", Map.of("team", "a")), ns("team-a", Map.of("team", "b")));
        f.cluster.addPod(Pods.pod("p2").namespace("team-a").build());
        await("p2 bound", () -> f.cluster.bindings().size() == 2);
        assertEquals(Map.of("team", "b"), seen.get(seen.size() - 1));

        f.scheduler.events().objectChanged("Namespace", ns("team-a", Map.of("team", "b")), null);
        f.cluster.addPod(Pods.pod("p3").namespace("team-a").build());
        await("p3 bound", () -> f.cluster.bindings().size() == 3);
        assertEquals(Map.of(), seen.get(seen.size() - 1));
    }
}
