package io.hotsched.embedded;

import static io.hotsched.embedded.TestObjects.binding;
import static io.hotsched.embedded.TestObjects.node;
import static io.hotsched.embedded.TestObjects.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The same script of operations against the stock store and the indexed one: every answer (and the
 * sequence a watcher sees) must be the same. Only the index's speed may differ.
 */
class IndexedStoreBehaviourTest {

    /** What one step answered, without the parts that differ between runs (uids, times, versions). */
    private static String describe(Object o) {
        if (o instanceof HasMetadata h) {
            String node = h instanceof Pod p && p.getSpec() != null
                    ? " node=" + p.getSpec().getNodeName()
                    : "";
            return h.getKind() + " " + h.getMetadata().getNamespace() + "/"
                    + h.getMetadata().getName() + " labels=" + h.getMetadata().getLabels() + " finalizers="
                    + h.getMetadata().getFinalizers() + " deleting="
                    + (h.getMetadata().getDeletionTimestamp() != null) + node;
        }
        if (o instanceof List<?> l) {
            List<String> items = new ArrayList<>();
            l.forEach(i -> items.add(describe(i)));
            items.sort(null);
            return items.toString();
        }
        return String.valueOf(o);
    }

    private static String step(Supplier<Object> op) {
        try {
            return describe(op.get());
        } catch (KubernetesClientException e) {
            return "error " + e.getCode();
        }
    }

    private static List<String> script(boolean indexed) throws Exception {
        List<String> out = new ArrayList<>();
        List<String> events = new CopyOnWriteArrayList<>();
        CountDownLatch seenMarker = new CountDownLatch(1);
        try (ApiServer api = new ApiServer(indexed).start()) {
            KubernetesClient c = api.client();
            Watch w = c.pods().inAnyNamespace().watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, Pod p) {
                    if (p.getMetadata().getName().equals("marker")) {
                        seenMarker.countDown();
                        return;
                    }
                    events.add(action + " " + p.getMetadata().getNamespace() + "/"
                            + p.getMetadata().getName() + " node=" + p.getSpec().getNodeName() + " deleting="
                            + (p.getMetadata().getDeletionTimestamp() != null));
                }

                @Override
                public void onClose(WatcherException e) {}
            });
            c.namespaces()
                    .resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                            .withNewMetadata()
                            .withName("a")
                            .endMetadata()
                            .build())
                    .create();
            out.add(step(() -> c.nodes().resource(node("same", "same")).create()));
            out.add(step(() -> c.pods().resource(pod("a", "same", "web")).create()));
            out.add(step(() -> c.pods().resource(pod("b", "same", "db")).create()));
            out.add(step(() -> c.pods().resource(pod("a", "same", "web")).create()));
            out.add(step(() -> c.pods().inNamespace("a").withName("same").get()));
            out.add(step(() -> c.pods().inNamespace("b").withName("same").get()));
            out.add(step(() -> c.nodes().withName("same").get()));
            out.add(step(() -> c.pods().inNamespace("c").withName("same").get()));
            out.add(step(() -> c.pods().inNamespace("a").withName("missing").get()));
            out.add(step(() -> c.pods()
                    .inNamespace("a")
                    .withName("same")
                    .edit(p -> new PodBuilder(p)
                            .editMetadata()
                            .addToLabels("tier", "1")
                            .endMetadata()
                            .build())));
            out.add(step(() -> c.pods()
                    .inNamespace("b")
                    .withName("same")
                    .patch(
                            io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                                    io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                            "{\"metadata\":{\"labels\":{\"tier\":\"2\"}}}")));
            out.add(step(() -> c.bindings()
                                    .inNamespace("a")
                                    .resource(binding("same", "same"))
                                    .create()
                            == null
                    ? "bound"
                    : "bound"));
            out.add(step(() -> c.bindings()
                    .inNamespace("a")
                    .resource(binding("same", "other"))
                    .create()));
            out.add(step(() -> c.bindings()
                    .inNamespace("a")
                    .resource(binding("ghost", "same"))
                    .create()));
            out.add(step(() -> c.pods().inNamespace("a").withName("same").get()));
            out.add(step(() ->
                    c.pods().inAnyNamespace().withLabel("app", "web").list().getItems()));
            out.add(step(
                    () -> c.pods().inAnyNamespace().withLabel("tier").list().getItems()));
            out.add(step(() -> c.pods()
                    .inAnyNamespace()
                    .withField("spec.nodeName", "same")
                    .list()
                    .getItems()));
            out.add(step(
                    () -> c.pods().inNamespace("b").withName("same").delete().size()));
            out.add(step(() -> c.pods().inNamespace("b").withName("same").get()));
            out.add(step(() -> c.pods().resource(pod("b", "same", "db2")).create()));
            // a finalizer holds the delete until it is removed
            out.add(step(() -> c.pods()
                    .resource(new PodBuilder(pod("a", "held", "web"))
                            .editMetadata()
                            .addToFinalizers("example.com/keep")
                            .endMetadata()
                            .build())
                    .create()));
            out.add(step(
                    () -> c.pods().inNamespace("a").withName("held").delete().size()));
            out.add(step(() -> c.pods().inNamespace("a").withName("held").get()));
            out.add(step(() -> c.pods()
                    .inNamespace("a")
                    .withName("held")
                    .edit(p -> new PodBuilder(p)
                            .editMetadata()
                            .withFinalizers(List.of())
                            .endMetadata()
                            .build())));
            out.add(step(() -> c.pods().inNamespace("a").withName("held").get()));
            out.add(step(() -> c.pods().inAnyNamespace().list().getItems()));
            // a watch delivers in order: once a pod created last is seen, every event before it was
            c.pods().resource(pod("z", "marker", "end")).create();
            if (!seenMarker.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("the watch did not deliver the marker: " + events);
            }
            w.close();
            out.add("watch: " + events);
            if (indexed) {
                assertTrue(
                        api.server().indexHits() > 10,
                        "the index answered the named look-ups: " + api.server().indexHits());
            }
        }
        return out;
    }

    @Test
    void theIndexedStoreAnswersExactlyAsTheStockOne() throws Exception {
        List<String> stock = script(false);
        List<String> indexed = script(true);

        // the script reaches what it means to: conflicts, misses, the finalizer hold, the watch
        assertEquals("error 409", stock.get(3), "duplicate create");
        assertEquals("null", stock.get(7), "the name in another namespace");
        assertEquals("error 409", stock.get(12), "double bind");
        assertEquals("error 404", stock.get(13), "bind of a missing pod");
        assertTrue(stock.get(23).contains("deleting=true"), stock.get(23));
        assertTrue(stock.get(stock.size() - 1).contains("DELETED b/same"), stock.get(stock.size() - 1));
        assertTrue(stock.get(stock.size() - 1).contains("DELETED a/held"), "the finalizer's removal ends the delete");
        for (int i = 0; i < stock.size(); i++) {
            assertEquals(stock.get(i), indexed.get(i), "step " + i);
        }
        assertEquals(stock.size(), indexed.size());
    }
}
