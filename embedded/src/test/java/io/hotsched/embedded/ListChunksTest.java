package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Lists in chunks and at a resource version over HTTP, as kube-apiserver answers them: pages in
 * key order, a continue token and remainingItemCount, every page as of the first one's version,
 * {@code resourceVersionMatch}, and upstream's 400, 410, 422 and 504 answers.
 */
class ListChunksTest {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    static final ApiServer API = new ApiServer();

    private static KubernetesClient client() {
        return API.client();
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return Http.send(API.server().url(), "GET", path, null, null, null);
    }

    private static JsonNode page(String path) throws Exception {
        HttpResponse<String> r = get(path);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private static List<String> names(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.path("items").forEach(i -> out.add(i.path("metadata").path("name").asText()));
        return out;
    }

    private static String token(JsonNode list) {
        return URLEncoder.encode(list.path("metadata").path("continue").asText(), StandardCharsets.UTF_8);
    }

    private static void pods(String ns, String... names) {
        for (String n : names) {
            client().resource(TestObjects.pod(ns, n, "chunked")).create();
        }
    }

    @Test
    void pagesComeInKeyOrderWithATokenAndTheCountLeft() throws Exception {
        pods("order", "c", "a", "e", "b", "d");
        String base = "/api/v1/namespaces/order/pods?limit=2";
        JsonNode first = page(base);
        assertEquals("PodList", first.path("kind").asText());
        assertEquals(List.of("a", "b"), names(first));
        assertEquals(3, first.path("metadata").path("remainingItemCount").asInt());
        JsonNode second = page(base + "&continue=" + token(first));
        assertEquals(List.of("c", "d"), names(second));
        assertEquals(1, second.path("metadata").path("remainingItemCount").asInt());
        JsonNode last = page(base + "&continue=" + token(second));
        assertEquals(List.of("e"), names(last));
        assertTrue(last.path("metadata").path("continue").isMissingNode(), last.toString());
        assertEquals(
                first.path("metadata").path("resourceVersion").asText(),
                last.path("metadata").path("resourceVersion").asText(),
                "every page is of the first one's version");
    }

    @Test
    void writesBetweenPagesDoNotShowInTheLaterPages() throws Exception {
        pods("steady", "a", "b", "c", "d");
        String base = "/api/v1/namespaces/steady/pods?limit=2";
        JsonNode first = page(base);
        pods("steady", "e");
        client().pods().inNamespace("steady").withName("c").delete();
        client().pods().inNamespace("steady").withName("d").edit(p -> {
            p.getMetadata().getLabels().put("changed", "yes");
            return p;
        });
        JsonNode rest = page(base + "&continue=" + token(first));
        assertEquals(List.of("c", "d"), names(rest), "as they were when the list began");
        assertTrue(rest.path("items")
                .get(1)
                .path("metadata")
                .path("labels")
                .path("changed")
                .isMissingNode());
        assertTrue(rest.path("metadata").path("continue").isMissingNode(), rest.toString());
        assertEquals(List.of("a", "b", "d", "e"), names(page("/api/v1/namespaces/steady/pods?limit=10")));
    }

    @Test
    void withASelectorPagesHaveNoCount() throws Exception {
        pods("picked", "x1", "x2", "x3");
        client().resource(TestObjects.pod("picked", "other", "else")).create();
        JsonNode first = page("/api/v1/namespaces/picked/pods?limit=2&labelSelector=app%3Dchunked");
        assertEquals(List.of("x1", "x2"), names(first));
        assertTrue(first.path("metadata").path("remainingItemCount").isMissingNode(), first.toString());
        JsonNode rest =
                page("/api/v1/namespaces/picked/pods?limit=2&labelSelector=app%3Dchunked&continue=" + token(first));
        assertEquals(List.of("x3"), names(rest));
    }

    @Test
    void anExactVersionIsTheStoreAsItWasThen() throws Exception {
        pods("then", "kept", "removed");
        String at = client().pods().inNamespace("then").list().getMetadata().getResourceVersion();
        pods("then", "later");
        client().pods().inNamespace("then").withName("removed").delete();
        JsonNode exact = page("/api/v1/namespaces/then/pods?resourceVersionMatch=Exact&resourceVersion=" + at);
        assertEquals(List.of("kept", "removed"), names(exact));
        assertEquals(at, exact.path("metadata").path("resourceVersion").asText());
        JsonNode newer = page("/api/v1/namespaces/then/pods?resourceVersionMatch=NotOlderThan&resourceVersion=" + at);
        assertEquals(List.of("kept", "later"), names(newer));
    }

    @Test
    void versionsTheEventLogNoLongerHoldsAreExpired() throws Exception {
        try (EmbeddedApiServer small = new EmbeddedApiServer(true, 2, Duration.ofMinutes(1)).start(0)) {
            KubernetesClient c = small.client();
            for (String n : List.of("a", "b", "c")) {
                c.resource(TestObjects.pod("gone", n)).create();
            }
            HttpResponse<String> firstPage =
                    Http.send(small.url(), "GET", "/api/v1/namespaces/gone/pods?limit=1", null, null, null);
            JsonNode first = JSON.readTree(firstPage.body());
            String at = first.path("metadata").path("resourceVersion").asText();
            for (String n : List.of("d", "e", "f")) {
                c.resource(TestObjects.pod("gone", n)).create();
            }
            HttpResponse<String> exact = Http.send(
                    small.url(),
                    "GET",
                    "/api/v1/namespaces/gone/pods?resourceVersionMatch=Exact&resourceVersion=" + at,
                    null,
                    null,
                    null);
            assertEquals(410, exact.statusCode(), exact.body());
            assertTrue(exact.body().contains("\"reason\":\"Expired\""), exact.body());
            assertTrue(exact.body().contains("The resourceVersion for the provided list is too old."), exact.body());
            HttpResponse<String> continued = Http.send(
                    small.url(),
                    "GET",
                    "/api/v1/namespaces/gone/pods?limit=1&continue=" + token(first),
                    null,
                    null,
                    null);
            assertEquals(410, continued.statusCode(), continued.body());
            JsonNode status = JSON.readTree(continued.body());
            assertEquals("Expired", status.path("reason").asText());
            assertTrue(
                    status.path("message")
                            .asText()
                            .startsWith("The provided continue parameter is too old to display a consistent list"
                                    + " result."),
                    continued.body());
            // the token of the 410 lists the rest as it is now
            HttpResponse<String> rest = Http.send(
                    small.url(),
                    "GET",
                    "/api/v1/namespaces/gone/pods?limit=10&continue=" + token(status),
                    null,
                    null,
                    null);
            assertEquals(List.of("b", "c", "d", "e", "f"), names(JSON.readTree(rest.body())), rest.body());
        }
    }

    @Test
    void refusalsAsKubeApiserverWordsThem() throws Exception {
        HttpResponse<String> bad = get("/api/v1/pods?limit=1&continue=not-a-token");
        assertEquals(400, bad.statusCode(), bad.body());
        assertTrue(bad.body().contains("invalid continue token: continue key is not valid"), bad.body());
        JsonNode first = page("/api/v1/pods?limit=1");
        HttpResponse<String> both = get("/api/v1/pods?limit=1&resourceVersion=1&continue=" + token(first));
        assertEquals(400, both.statusCode(), both.body());
        assertTrue(both.body().contains("specifying resource version is not allowed when using continue"), both.body());
        HttpResponse<String> ahead = get("/api/v1/pods?resourceVersionMatch=NotOlderThan&resourceVersion=99999999");
        assertEquals(504, ahead.statusCode(), ahead.body());
        assertTrue(ahead.body().contains("Too large resource version: 99999999, current: "), ahead.body());
        HttpResponse<String> invalid = get("/api/v1/pods?resourceVersionMatch=Exact");
        assertEquals(422, invalid.statusCode(), invalid.body());
        assertTrue(
                invalid.body().contains("resourceVersionMatch is forbidden unless resourceVersion is provided"),
                invalid.body());
    }

    @Test
    void aTablePageCarriesTheToken() throws Exception {
        pods("printed", "t1", "t2");
        HttpResponse<String> r = Http.send(
                API.server().url(),
                "GET",
                "/api/v1/namespaces/printed/pods?limit=1",
                null,
                null,
                "application/json;as=Table;v=v1;g=meta.k8s.io");
        JsonNode t = JSON.readTree(r.body());
        assertEquals("Table", t.path("kind").asText(), r.body());
        assertEquals(1, t.path("rows").size());
        assertEquals(1, t.path("metadata").path("remainingItemCount").asInt(), r.body());
        assertTrue(!t.path("metadata").path("continue").asText().isEmpty(), r.body());
    }
}
