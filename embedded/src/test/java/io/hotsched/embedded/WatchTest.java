package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Watches over HTTP as kube-apiserver serves them: a chunked stream of JSON lines over plain HTTP
 * (kubectl, client-go), from a resource version or from now, with bookmarks, the initial events
 * of {@code sendInitialEvents}, {@code timeoutSeconds} and kube-apiserver's refusals; and fabric8's
 * WebSocket watch beside it.
 */
class WatchTest {

    @RegisterExtension
    static final ApiServer API = new ApiServer();

    private static String url() {
        return API.server().url();
    }

    private static KubernetesClient client() {
        return API.client();
    }

    private static Pod create(String ns, String name) {
        return client().resource(TestObjects.pod(ns, name)).create();
    }

    private static String rv(JsonNode event) {
        return event.path("object").path("metadata").path("resourceVersion").asText();
    }

    private static String name(JsonNode event) {
        return event.path("object").path("metadata").path("name").asText();
    }

    @Test
    void aPlainHttpWatchIsAChunkedStreamOfJsonLines() throws Exception {
        try (EventStream w = EventStream.open(url(), "/api/v1/namespaces/plain/pods?watch=true")) {
            HttpResponse<?> r = w.response;
            assertEquals(200, r.statusCode());
            assertEquals(
                    "application/json", r.headers().firstValue("Content-Type").orElse(""));
            assertEquals("chunked", r.headers().firstValue("Transfer-Encoding").orElse(""));
            create("plain", "p1");
            JsonNode added = w.next();
            assertEquals("ADDED", added.path("type").asText(), w.seen().toString());
            assertEquals("p1", name(added));
            client().pods().inNamespace("plain").withName("p1").edit(p -> {
                p.getMetadata().setLabels(java.util.Map.of("tier", "web"));
                return p;
            });
            JsonNode modified = w.next();
            assertEquals("MODIFIED", modified.path("type").asText());
            assertEquals(
                    "web",
                    modified.path("object")
                            .path("metadata")
                            .path("labels")
                            .path("tier")
                            .asText());
            client().pods().inNamespace("plain").withName("p1").delete();
            JsonNode deleted = w.next();
            assertEquals("DELETED", deleted.path("type").asText());
            assertTrue(
                    Long.parseLong(rv(deleted)) > Long.parseLong(rv(modified)),
                    "a deletion is a write of its own, with a later version: " + w.seen());
        }
    }

    @Test
    void withoutAVersionAWatchStartsWithWhatThereIs() throws Exception {
        create("initial", "a");
        create("initial", "b");
        try (EventStream w = EventStream.open(url(), "/api/v1/namespaces/initial/pods?watch=1")) {
            assertEquals(List.of("ADDED a", "ADDED b"), List.of(describe(w.next()), describe(w.next())));
        }
    }

    @Test
    void fromAVersionAWatchGetsTheWritesAfterItOnly() throws Exception {
        create("replay", "before");
        create("replay", "gone");
        String listed =
                client().pods().inNamespace("replay").list().getMetadata().getResourceVersion();
        create("replay", "after");
        client().pods().inNamespace("replay").withName("gone").delete();
        try (EventStream w =
                EventStream.open(url(), "/api/v1/namespaces/replay/pods?watch=true&resourceVersion=" + listed)) {
            // what the list showed is not sent again; what came after it is, deletions too
            assertEquals(List.of("ADDED after", "DELETED gone"), List.of(describe(w.next()), describe(w.next())));
            create("replay", "live");
            assertEquals("ADDED live", describe(w.next()));
        }
    }

    @Test
    void aVersionOlderThanTheEventLogIsExpired() throws Exception {
        try (EmbeddedApiServer small = new EmbeddedApiServer(true, 3, Duration.ofMinutes(1)).start(0)) {
            KubernetesClient c = small.client();
            c.resource(TestObjects.pod("old", "first")).create();
            String listed = c.pods().inNamespace("old").list().getMetadata().getResourceVersion();
            for (int i = 0; i < 4; i++) {
                c.resource(TestObjects.pod("old", "p" + i)).create();
            }
            try (EventStream w =
                    EventStream.open(small.url(), "/api/v1/namespaces/old/pods?watch=true&resourceVersion=" + listed)) {
                assertEquals(200, w.response.statusCode());
                JsonNode e = w.next();
                assertEquals("ERROR", e.path("type").asText());
                assertEquals(410, e.path("object").path("code").asInt());
                assertEquals("Expired", e.path("object").path("reason").asText());
                assertTrue(
                        e.path("object").path("message").asText().startsWith("too old resource version: " + listed),
                        e.toString());
                assertTrue(w.endsWithoutEvents(), "the stream ends after the error: " + w.seen());
            }
        }
    }

    @Test
    void sendInitialEventsEndsTheInitialEventsWithAnAnnotatedBookmark() throws Exception {
        create("streamed", "s1");
        try (EventStream w = EventStream.open(
                url(),
                "/api/v1/namespaces/streamed/pods?watch=true&sendInitialEvents=true"
                        + "&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")) {
            assertEquals("ADDED s1", describe(w.next()));
            JsonNode bookmark = w.next();
            assertEquals("BOOKMARK", bookmark.path("type").asText());
            assertEquals("Pod", bookmark.path("object").path("kind").asText());
            assertEquals(
                    "true",
                    bookmark.path("object")
                            .path("metadata")
                            .path("annotations")
                            .path("k8s.io/initial-events-end")
                            .asText());
            String at = rv(bookmark);
            create("streamed", "s2");
            JsonNode next = w.next();
            assertEquals("ADDED s2", describe(next));
            assertTrue(Long.parseLong(rv(next)) > Long.parseLong(at), w.seen().toString());
        }
    }

    @Test
    void bookmarksComeWhenAllowed() throws Exception {
        try (EmbeddedApiServer fast = new EmbeddedApiServer(true, 100, Duration.ofMillis(200)).start(0)) {
            fast.client().resource(TestObjects.pod("marked", "m")).create();
            String listed = fast.client()
                    .pods()
                    .inNamespace("marked")
                    .list()
                    .getMetadata()
                    .getResourceVersion();
            try (EventStream w = EventStream.open(
                    fast.url(),
                    "/api/v1/namespaces/marked/pods?watch=true&allowWatchBookmarks=true&resourceVersion=" + listed)) {
                JsonNode bookmark = w.next();
                assertEquals("BOOKMARK", bookmark.path("type").asText());
                assertEquals(listed, rv(bookmark), "nothing was written since the list");
                assertTrue(bookmark.path("object")
                        .path("metadata")
                        .path("annotations")
                        .isMissingNode());
            }
        }
    }

    @Test
    void timeoutSecondsEndsTheStreamCleanly() throws Exception {
        String listed =
                client().pods().inNamespace("timed").list().getMetadata().getResourceVersion();
        try (EventStream w = EventStream.open(
                url(), "/api/v1/namespaces/timed/pods?watch=true&timeoutSeconds=1&resourceVersion=" + listed)) {
            assertTrue(w.endsWithoutEvents(), "the stream ends, its last chunk sent: " + w.seen());
        }
    }

    @Test
    void aClientThatGoesEndsItsWatch() throws Exception {
        try (EmbeddedApiServer own = new EmbeddedApiServer().start(0)) {
            EventStream w = EventStream.open(own.url(), "/api/v1/namespaces/leaving/pods?watch=true");
            assertEquals(1, own.openWatches());
            w.close();
            assertTrue(
                    own.awaitOpenWatches(n -> n == 0, TimeUnit.SECONDS.toMillis(10)), "the server let go of the watch");
        }
    }

    @Test
    void invalidOptionsAreRefusedAsKubeApiserverRefusesThem() throws Exception {
        var r = Http.send(url(), "GET", "/api/v1/pods?watch=true&resourceVersionMatch=NotOlderThan", null, null, null);
        assertEquals(422, r.statusCode(), r.body());
        assertTrue(
                r.body()
                        .contains("ListOptions.meta.k8s.io \\\"\\\" is invalid: resourceVersionMatch: Forbidden:"
                                + " resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"),
                r.body());
        var bad = Http.send(url(), "GET", "/api/v1/pods?watch=true&timeoutSeconds=soon", null, null, null);
        assertEquals(400, bad.statusCode(), bad.body());
        assertTrue(bad.body().contains("timeoutSeconds: Invalid value: \\\"soon\\\""), bad.body());
    }

    @Test
    void fabric8sWebSocketWatchSeesTheSameEvents() throws Exception {
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        Watch watch = client().pods().inNamespace("socket").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                events.add(action + " " + pod.getMetadata().getName());
            }

            @Override
            public void onClose(WatcherException cause) {}
        });
        try {
            create("socket", "w1");
            client().pods().inNamespace("socket").withName("w1").delete();
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                seen.add(events.poll(10, TimeUnit.SECONDS));
            }
            assertEquals(List.of("ADDED w1", "DELETED w1"), seen);
        } finally {
            watch.close();
        }
    }

    private static String describe(JsonNode event) {
        return event.path("type").asText() + " " + name(event);
    }
}
