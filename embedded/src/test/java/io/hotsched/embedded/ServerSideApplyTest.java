package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Server-side apply and managed fields over HTTP, as kube-apiserver answers them. */
class ServerSideApplyTest {

    @RegisterExtension
    static final ApiServer API = new ApiServer();

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

    static HttpResponse<String> send(String method, String path, String type, String body) throws Exception {
        return Http.send(
                API.server().url(),
                method,
                path,
                type,
                body == null ? null : body.getBytes(StandardCharsets.UTF_8),
                null);
    }

    static HttpResponse<String> apply(String path, String manager, String yaml) throws Exception {
        return send("PATCH", path + "?fieldManager=" + manager, Patches.APPLY, yaml);
    }

    static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = send("GET", path, null, null);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    static JsonNode entry(JsonNode object, String manager, String operation) {
        for (JsonNode e : object.path("metadata").path("managedFields")) {
            if (e.path("manager").asText().equals(manager)
                    && e.path("operation").asText().equals(operation)) {
                return e;
            }
        }
        return null;
    }

    /** The message of a 409 answer. */
    static String conflict(HttpResponse<String> r) throws Exception {
        assertEquals(409, r.statusCode(), r.body());
        return JSON.readTree(r.body()).path("message").asText();
    }

    /** The fieldsV1 of {@code manager}'s entry, as JSON. */
    static String fields(JsonNode object, String manager, String operation) {
        return entry(object, manager, operation).path("fieldsV1").toString();
    }

    static String configMap(String name, String... data) {
        StringBuilder b =
                new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n");
        for (int i = 0; i < data.length; i += 2) {
            b.append("  ").append(data[i]).append(": \"").append(data[i + 1]).append("\"\n");
        }
        return b.toString();
    }

    @Test
    void applyCreatesTheObjectAndRecordsItsManager() throws Exception {
        HttpResponse<String> r = apply(CONFIGMAPS + "/created", "tool", configMap("created", "a", "1"));
        assertEquals(201, r.statusCode(), r.body());
        JsonNode cm = get(CONFIGMAPS + "/created");
        assertEquals("1", cm.path("data").path("a").asText());
        JsonNode e = entry(cm, "tool", "Apply");
        assertEquals("v1", e.path("apiVersion").asText(), cm.toString());
        assertEquals("FieldsV1", e.path("fieldsType").asText());
        assertEquals("{\"f:data\":{\"f:a\":{}}}", e.path("fieldsV1").toString());
        assertTrue(e.path("time").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), e.toString());
    }

    @Test
    void aFieldManagerIsRequiredAndForceBelongsToApply() throws Exception {
        HttpResponse<String> r = send("PATCH", CONFIGMAPS + "/nomanager", Patches.APPLY, configMap("nomanager"));
        assertEquals(422, r.statusCode(), r.body());
        JsonNode status = JSON.readTree(r.body());
        assertEquals(
                "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch",
                status.path("message").asText());
        assertEquals(
                "fieldManager",
                status.path("details").path("causes").get(0).path("field").asText());
        HttpResponse<String> forced = send("PATCH", CONFIGMAPS + "/x?force=true", Patches.MERGE_PATCH, "{}");
        assertEquals(422, forced.statusCode(), forced.body());
        assertTrue(forced.body().contains("force: Forbidden: may not be specified for non-apply patch"), forced.body());
    }

    @Test
    void reApplyingWithoutAFieldRemovesItUnlessAnotherManagerOwnsIt() throws Exception {
        String cm = CONFIGMAPS + "/pruned";
        assertEquals(
                201,
                apply(cm, "tool", configMap("pruned", "a", "1", "b", "2", "c", "3"))
                        .statusCode());
        // another manager sets c to the same value: c is shared now
        assertEquals(200, apply(cm, "other", configMap("pruned", "c", "3")).statusCode());
        HttpResponse<String> r = apply(cm, "tool", configMap("pruned", "a", "1"));
        assertEquals(200, r.statusCode(), r.body());
        JsonNode data = get(cm).path("data");
        assertEquals("1", data.path("a").asText());
        assertFalse(data.has("b"), "b was the applier's alone: " + data);
        assertEquals("3", data.path("c").asText(), "c is still other's: " + data);
    }

    @Test
    void aConflictIsRefusedWithKubeApiserversMessageAndForceTakesTheField() throws Exception {
        String cm = CONFIGMAPS + "/contested";
        assertEquals(
                201,
                apply(cm, "first", configMap("contested", "a", "1", "b", "1")).statusCode());
        HttpResponse<String> r = apply(cm, "second", configMap("contested", "a", "2"));
        assertEquals(409, r.statusCode(), r.body());
        JsonNode status = JSON.readTree(r.body());
        assertEquals("Conflict", status.path("reason").asText());
        assertEquals(
                "Apply failed with 1 conflict: conflict with \"first\": .data.a",
                status.path("message").asText());
        JsonNode cause = status.path("details").path("causes").get(0);
        assertEquals("FieldManagerConflict", cause.path("reason").asText());
        assertEquals("conflict with \"first\"", cause.path("message").asText());
        assertEquals(".data.a", cause.path("field").asText());
        assertEquals("1", get(cm).path("data").path("a").asText(), "nothing written");

        HttpResponse<String> forced =
                send("PATCH", cm + "?fieldManager=second&force=true", Patches.APPLY, configMap("contested", "a", "2"));
        assertEquals(200, forced.statusCode(), forced.body());
        JsonNode after = get(cm);
        assertEquals("2", after.path("data").path("a").asText());
        assertEquals("{\"f:data\":{\"f:b\":{}}}", fields(after, "first", "Apply"));
        assertEquals("{\"f:data\":{\"f:a\":{}}}", fields(after, "second", "Apply"));
    }

    @Test
    void conflictsWithSeveralFieldsAreListedByManager() throws Exception {
        String cm = CONFIGMAPS + "/many";
        assertEquals(
                201, apply(cm, "first", configMap("many", "a", "1", "b", "1")).statusCode());
        assertEquals(
                "Apply failed with 2 conflicts: conflicts with \"first\":\n- .data.a\n- .data.b",
                conflict(apply(cm, "second", configMap("many", "a", "2", "b", "2"))));
    }

    @Test
    void anUpdateTakesTheFieldsItChangesAndIsRecordedAsUpdate() throws Exception {
        String cm = CONFIGMAPS + "/updated";
        assertEquals(
                201, apply(cm, "tool", configMap("updated", "a", "1", "b", "1")).statusCode());
        HttpResponse<String> r =
                send("PATCH", cm + "?fieldManager=editor", Patches.MERGE_PATCH, "{\"data\":{\"a\":\"9\",\"c\":\"9\"}}");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode after = get(cm);
        assertEquals("{\"f:data\":{\"f:a\":{},\"f:c\":{}}}", fields(after, "editor", "Update"), after.toString());
        assertEquals("{\"f:data\":{\"f:b\":{}}}", fields(after, "tool", "Apply"));
        // the Apply entry comes first, as kube-apiserver orders them
        assertEquals(
                "Apply",
                after.path("metadata")
                        .path("managedFields")
                        .get(0)
                        .path("operation")
                        .asText());

        // the applier applying a again, with its old value: the editor owns it now
        assertEquals(
                "Apply failed with 1 conflict: conflict with \"editor\" using v1: .data.a",
                conflict(apply(cm, "tool", configMap("updated", "a", "1", "b", "1"))));
    }

    @Test
    void applyingToAnObjectWithoutManagedFieldsConflictsWithWhatWasThere() throws Exception {
        API.client()
                .configMaps()
                .inNamespace("default")
                .resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("untracked")
                        .endMetadata()
                        .addToData("a", "1")
                        .build())
                .create();
        JsonNode before = get(CONFIGMAPS + "/untracked");
        assertTrue(before.path("metadata").path("managedFields").isMissingNode(), "no fieldManager, no tracking");
        assertEquals(
                "Apply failed with 1 conflict: conflict with \"before-first-apply\" using v1: .data.a",
                conflict(apply(CONFIGMAPS + "/untracked", "tool", configMap("untracked", "a", "2"))));
    }

    @Test
    void keyedListsMergeItemByItemAndAreWrittenWithTheirKeys() throws Exception {
        String path = "/apis/apps/v1/namespaces/default/deployments/keyed";
        String base = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: keyed}\nspec:\n"
                + "  selector: {matchLabels: {app: keyed}}\n  template:\n    metadata: {labels: {app: keyed}}\n"
                + "    spec:\n      containers:\n";
        assertEquals(
                201,
                apply(
                                path,
                                "main",
                                base
                                        + "      - name: app\n        image: app:1\n        ports: [{containerPort: 80}]\n")
                        .statusCode());
        HttpResponse<String> r = apply(path, "sidecar", base + "      - name: proxy\n        image: proxy:1\n");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode d = get(path);
        JsonNode containers = d.path("spec").path("template").path("spec").path("containers");
        List<String> names = new ArrayList<>();
        containers.forEach(c -> names.add(c.path("name").asText()));
        assertEquals(List.of("app", "proxy"), names, containers.toString());
        JsonNode main = entry(d, "main", "Apply")
                .path("fieldsV1")
                .path("f:spec")
                .path("f:template")
                .path("f:spec")
                .path("f:containers")
                .path("k:{\"name\":\"app\"}");
        assertTrue(main.has("."), main.toString());
        assertTrue(main.path("f:ports").has("k:{\"containerPort\":80,\"protocol\":\"TCP\"}"), main.toString());
        // the selector is atomic: one leaf, not its labels
        assertEquals(
                "{}",
                entry(d, "main", "Apply")
                        .path("fieldsV1")
                        .path("f:spec")
                        .path("f:selector")
                        .toString());

        // the sidecar's manager drops its container: only its container goes
        HttpResponse<String> dropped =
                apply(path, "sidecar", base.replace("      containers:\n", "      containers: []\n"));
        assertEquals(200, dropped.statusCode(), dropped.body());
        JsonNode left = get(path).path("spec").path("template").path("spec").path("containers");
        assertEquals(1, left.size(), left.toString());
        assertEquals("app", left.get(0).path("name").asText());
    }

    @Test
    void aPodAppliedGetsItsDefaultsAndStatusIsNotTheAppliers() throws Exception {
        String path = "/api/v1/namespaces/default/pods/applied";
        HttpResponse<String> r = apply(
                path,
                "tool",
                "apiVersion: v1\nkind: Pod\nmetadata: {name: applied}\nspec:\n  containers: [{name: c, image: pause}]\n"
                        + "status: {phase: Running}\n");
        assertEquals(201, r.statusCode(), r.body());
        JsonNode pod = get(path);
        assertEquals("default-scheduler", pod.path("spec").path("schedulerName").asText());
        assertEquals("Pending", pod.path("status").path("phase").asText(), "status is reset on the main resource");
        JsonNode fields = entry(pod, "tool", "Apply").path("fieldsV1");
        assertTrue(fields.path("f:status").isMissingNode(), fields.toString());
        assertTrue(fields.path("f:spec").path("f:schedulerName").isMissingNode(), "defaults are no one's");
    }

    @Test
    void aCustomResourceIsAppliedWithAtomicLists() throws Exception {
        String path = "/apis/slo.koordinator.sh/v1alpha1/nodemetrics/nm-1";
        String yaml = "apiVersion: slo.koordinator.sh/v1alpha1\nkind: NodeMetric\nmetadata: {name: nm-1}\n"
                + "spec:\n  metricCollectPolicy: {aggregateDurationSeconds: 60, reportIntervalSeconds: 30}\n";
        assertEquals(201, apply(path, "tool", yaml).statusCode());
        assertEquals(200, apply(path, "tool", yaml.replace("60", "90")).statusCode());
        JsonNode nm = get(path);
        assertEquals(
                90,
                nm.path("spec")
                        .path("metricCollectPolicy")
                        .path("aggregateDurationSeconds")
                        .asInt());
        assertEquals(
                "{\"f:spec\":{\"f:metricCollectPolicy\":{\"f:aggregateDurationSeconds\":{},\"f:reportIntervalSeconds\":{}}}}",
                fields(nm, "tool", "Apply"));
    }

    @Test
    void aConfigurationForAnotherObjectIsRefused() throws Exception {
        HttpResponse<String> r = apply(CONFIGMAPS + "/one", "tool", configMap("two"));
        assertEquals(400, r.statusCode());
        assertTrue(
                r.body().contains("the name of the object (two) does not match the name on the URL (one)"), r.body());
        assertNull(
                API.client().configMaps().inNamespace("default").withName("one").get());
    }

    @Test
    void aListOfOneEmptyEntryDropsTheManagedFields() throws Exception {
        String cm = CONFIGMAPS + "/reset";
        assertEquals(201, apply(cm, "tool", configMap("reset", "a", "1")).statusCode());
        HttpResponse<String> r = send(
                "PATCH",
                cm,
                Patches.JSON_PATCH,
                "[{\"op\":\"replace\",\"path\":\"/metadata/managedFields\",\"value\":[{}]}]");
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(get(cm).path("metadata").path("managedFields").isMissingNode(), r.body());
    }
}
