package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The three patch types over HTTP, with the strategic merge rules of the built-in kinds. */
class PatchesTest {

    @RegisterExtension
    static final ApiServer API = new ApiServer();

    static final JsonMapper JSON = JsonMapper.builder().build();

    static HttpResponse<String> send(String method, String path, String type, String body) throws Exception {
        return Http.send(API.server().url(), method, path, type, body.getBytes(StandardCharsets.UTF_8), null);
    }

    /** POSTs {@code json} to {@code collection}, and answers the new object's path. */
    static String create(String collection, String name, String json) throws Exception {
        HttpResponse<String> r = send("POST", collection, "application/json", json);
        assertEquals(201, r.statusCode(), r.body());
        return collection + "/" + name;
    }

    static String createPod(String name) throws Exception {
        return create(
                "/api/v1/namespaces/default/pods",
                name,
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
                        + "\",\"labels\":{\"a\":\"1\",\"b\":\"2\"}},\"spec\":{\"containers\":["
                        + "{\"name\":\"app\",\"image\":\"app:1\",\"env\":[{\"name\":\"X\",\"value\":\"1\"}]},"
                        + "{\"name\":\"side\",\"image\":\"side:1\"}],"
                        + "\"tolerations\":[{\"key\":\"k\",\"operator\":\"Exists\"}]},"
                        + "\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\"},"
                        + "{\"type\":\"PodScheduled\",\"status\":\"True\"}]}}");
    }

    static JsonNode get(String path) throws Exception {
        return JSON.readTree(
                Http.send(API.server().url(), "GET", path, null, null, null).body());
    }

    /** A Deployment whose pod template has two containers and a toleration (a pod's spec may not change so). */
    static String createDeployment(String name) throws Exception {
        return create(
                "/apis/apps/v1/namespaces/default/deployments",
                name,
                "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"" + name
                        + "\",\"labels\":{\"a\":\"1\",\"b\":\"2\"}},\"spec\":{\"selector\":{\"matchLabels\":"
                        + "{\"app\":\"x\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"x\"}},\"spec\":{"
                        + "\"containers\":["
                        + "{\"name\":\"app\",\"image\":\"app:1\",\"env\":[{\"name\":\"X\",\"value\":\"1\"}]},"
                        + "{\"name\":\"side\",\"image\":\"side:1\"}],"
                        + "\"tolerations\":[{\"key\":\"k\",\"operator\":\"Exists\"}]}}}}");
    }

    @Test
    void strategicMergeMergesContainersByNameAndReplacesTolerations() throws Exception {
        String deployment = createDeployment("smp");
        HttpResponse<String> r = send(
                "PATCH",
                deployment,
                Patches.STRATEGIC,
                "{\"metadata\":{\"labels\":{\"a\":null,\"c\":\"3\"}},\"spec\":{\"template\":{\"spec\":{"
                        + "\"containers\":["
                        + "{\"name\":\"app\",\"image\":\"app:2\",\"env\":[{\"name\":\"Y\",\"value\":\"2\"}]},"
                        + "{\"name\":\"side\",\"$patch\":\"delete\"}],"
                        + "\"tolerations\":[{\"key\":\"other\",\"operator\":\"Exists\"}]}}}}");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode d = get(deployment);
        assertFalse(d.path("metadata").path("labels").has("a"));
        assertEquals("3", d.path("metadata").path("labels").path("c").asText());
        JsonNode spec = d.path("spec").path("template").path("spec");
        assertEquals(1, spec.path("containers").size());
        JsonNode app = spec.path("containers").get(0);
        assertEquals("app:2", app.path("image").asText());
        assertEquals(2, app.path("env").size(), "env merged by name");
        // tolerations are atomic: replaced
        JsonNode tolerations = spec.path("tolerations");
        assertEquals(1, tolerations.size(), tolerations.toString());
        assertEquals("other", tolerations.get(0).path("key").asText());
    }

    @Test
    void statusConditionsMergeByTypeAndDirectivesAreFollowed() throws Exception {
        String pod = createPod("cond");
        HttpResponse<String> r = send(
                "PATCH",
                pod + "/status",
                Patches.STRATEGIC,
                "{\"status\":{\"$setElementOrder/conditions\":[{\"type\":\"PodScheduled\"},{\"type\":\"Ready\"}],"
                        + "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]},"
                        + "\"metadata\":{\"finalizers\":[\"x/y\"]}}");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode conditions = get(pod).path("status").path("conditions");
        assertEquals(2, conditions.size());
        assertEquals("PodScheduled", conditions.get(0).path("type").asText());
        assertEquals("True", conditions.get(1).path("status").asText());
    }

    @Test
    void mergePatchDeletesWithNullAndJsonPatchFollowsItsOperations() throws Exception {
        String pod = createPod("mp");
        assertEquals(
                200,
                send("PATCH", pod, Patches.MERGE_PATCH, "{\"metadata\":{\"labels\":{\"b\":null}}}")
                        .statusCode());
        assertFalse(get(pod).path("metadata").path("labels").has("b"));
        HttpResponse<String> r = send(
                "PATCH",
                pod,
                Patches.JSON_PATCH,
                "[{\"op\":\"replace\",\"path\":\"/spec/containers/0/image\",\"value\":\"app:3\"},"
                        + "{\"op\":\"remove\",\"path\":\"/metadata/labels/a\"}]");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode p = get(pod);
        assertEquals(
                "app:3", p.path("spec").path("containers").get(0).path("image").asText());
        assertTrue(p.path("metadata").path("labels").path("a").isMissingNode());

        HttpResponse<String> failed = send(
                "PATCH", pod, Patches.JSON_PATCH, "[{\"op\":\"test\",\"path\":\"/spec/nodeName\",\"value\":\"n\"}]");
        assertEquals(422, failed.statusCode(), failed.body());
    }

    @Test
    void unknownTypesAndStrategicPatchesOfCustomResourcesAreRefusedAsKubeApiserverDoes() throws Exception {
        String pod = createPod("refused");
        HttpResponse<String> r = send("PATCH", pod, "text/plain", "x");
        assertEquals(415, r.statusCode());
        assertTrue(r.body().contains(Patches.STRATEGIC), r.body());
        HttpResponse<String> nm =
                send("PATCH", "/apis/slo.koordinator.sh/v1alpha1/nodemetrics/n1", Patches.STRATEGIC, "{}");
        assertEquals(415, nm.statusCode());
        assertFalse(nm.body().contains(Patches.STRATEGIC), nm.body());
        assertEquals(
                404,
                send("PATCH", "/api/v1/namespaces/default/pods/none", Patches.MERGE_PATCH, "{}")
                        .statusCode());
    }
}
