package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Label and field selectors on watches, with kube-apiserver's rule for an object whose change
 * moves it across the selector: one that starts matching is ADDED, one that stops is DELETED
 * (with its last matching state), over plain HTTP.
 */
class WatchSelectorTest {

    @RegisterExtension
    static final ApiServer API = new ApiServer().withNodes("node-s");

    private static KubernetesClient client() {
        return API.client();
    }

    private static EventStream watch(String ns, String selector) throws Exception {
        String listed = client().pods().inNamespace(ns).list().getMetadata().getResourceVersion();
        return EventStream.open(
                API.server().url(),
                "/api/v1/namespaces/" + ns + "/pods?watch=true&resourceVersion=" + listed + "&" + selector);
    }

    private static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String describe(JsonNode e) {
        JsonNode meta = e.path("object").path("metadata");
        return e.path("type").asText() + " " + meta.path("name").asText();
    }

    private static void label(String ns, String name, String key, String value) {
        client().pods().inNamespace(ns).withName(name).edit(p -> {
            Map<String, String> labels = new java.util.HashMap<>(
                    p.getMetadata().getLabels() == null
                            ? Map.of()
                            : p.getMetadata().getLabels());
            if (value == null) {
                labels.remove(key);
            } else {
                labels.put(key, value);
            }
            p.getMetadata().setLabels(labels);
            return p;
        });
    }

    @Test
    void anObjectThatStopsMatchingALabelSelectorIsDeletedAndOneThatStartsIsAdded() throws Exception {
        client().resource(TestObjects.pod("labels", "x", "web")).create();
        try (EventStream w = watch("labels", "labelSelector=" + q("app=web"))) {
            client().resource(TestObjects.pod("labels", "y", "db")).create();
            label("labels", "x", "app", "db");
            JsonNode gone = w.next();
            assertEquals("DELETED x", describe(gone), w.seen().toString());
            // the last state that matched, at the version of the change
            assertEquals(
                    "web",
                    gone.path("object")
                            .path("metadata")
                            .path("labels")
                            .path("app")
                            .asText());
            label("labels", "y", "app", "web");
            assertEquals("ADDED y", describe(w.next()));
            label("labels", "y", "tier", "1");
            assertEquals("MODIFIED y", describe(w.next()));
        }
    }

    @Test
    void setBasedLabelSelectors() throws Exception {
        try (EventStream w = watch("sets", "labelSelector=" + q("app in (a,b),!canary"))) {
            client().resource(TestObjects.pod("sets", "c", "c")).create();
            client().resource(TestObjects.pod("sets", "a", "a")).create();
            label("sets", "a", "canary", "yes");
            assertEquals(List.of("ADDED a", "DELETED a"), List.of(describe(w.next()), describe(w.next())));
        }
    }

    @Test
    void unassignedPodsAsTheSchedulerWatchesThem() throws Exception {
        try (EventStream w = watch("pending", "fieldSelector=" + q("spec.nodeName="))) {
            client().resource(TestObjects.pod("pending", "u")).create();
            assertEquals("ADDED u", describe(w.next()));
            client().bindings()
                    .inNamespace("pending")
                    .resource(TestObjects.binding("u", "node-s"))
                    .create();
            // bound: no longer unassigned
            assertEquals("DELETED u", describe(w.next()), w.seen().toString());
        }
    }

    @Test
    void aPodOfOneNodeAndPhase() throws Exception {
        try (EventStream w = watch("phase", "fieldSelector=" + q("spec.nodeName=node-s,status.phase!=Succeeded"))) {
            Pod p = TestObjects.pod("phase", "r");
            p.getSpec().setNodeName("node-s");
            client().resource(p).create();
            client().resource(TestObjects.pod("phase", "elsewhere")).create();
            assertEquals("ADDED r", describe(w.next()));
            client().pods().inNamespace("phase").withName("r").editStatus(x -> {
                x.getStatus().setPhase("Succeeded");
                return x;
            });
            assertEquals("DELETED r", describe(w.next()), w.seen().toString());
        }
    }

    @Test
    void oneObjectByName() throws Exception {
        try (EventStream w = watch("named", "fieldSelector=" + q("metadata.name=this"))) {
            client().resource(TestObjects.pod("named", "that")).create();
            client().resource(TestObjects.pod("named", "this")).create();
            assertEquals("ADDED this", describe(w.next()), w.seen().toString());
        }
    }
}
