package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The OpenAPI documents and {@code fieldValidation}: the real kubectl creates and applies
 * manifests with its default validation, is refused a manifest with unknown fields as
 * kube-apiserver refuses it, and explains a kind; the documents and the directives over HTTP.
 */
class OpenApiTest {

    @TempDir
    static Path dir;

    @RegisterExtension
    static final ApiServer API = new ApiServer();

    static Kubectl cli;

    @BeforeAll
    static void kubeconfig() throws Exception {
        cli = new Kubectl(API.kubeconfig(dir));
    }

    private static final String POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: NAME}\nspec:\n"
            + "  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m}}}]\n";

    @Test
    void applyOfAPodValidatesWithoutValidateFalse() throws Exception {
        Kubectl.Run r = cli.withInput(POD.replace("NAME", "applied"), "apply", "-f", "-")
                .ok();
        assertTrue(r.out().contains("pod/applied created"), r.out());
        assertNotNull(
                API.client().pods().inNamespace("default").withName("applied").get());
    }

    @Test
    void createOfADeploymentValidatesWithoutValidateFalse() throws Exception {
        String deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n"
                + "  replicas: 2\n  selector: {matchLabels: {app: web}}\n"
                + "  template:\n    metadata: {labels: {app: web}}\n"
                + "    spec: {containers: [{name: c, image: nginx, ports: [{containerPort: 80}]}]}\n";
        cli.withInput(deployment, "create", "-f", "-").ok();
        var d = API.deployment("web");
        assertEquals(2, d.getSpec().getReplicas());
    }

    @Test
    void unknownFieldsAreRefusedAsKubeApiserverRefusesThem() throws Exception {
        String bad = "apiVersion: v1\nkind: Pod\nmetadata: {name: bad, namspace: x}\nspec:\n"
                + "  containers: [{name: c, image: pause, imagePolicy: x}]\n  foo: 1\n";
        Kubectl.Run r = cli.withInput(bad, "create", "-f", "-");
        assertEquals(1, r.exit(), r.out());
        assertTrue(
                r.out()
                        .contains("Error from server (BadRequest): error when creating \"STDIN\": Pod in version \"v1\""
                                + " cannot be handled as a Pod: strict decoding error: unknown field \"metadata.namspace\","
                                + " unknown field \"spec.containers[0].imagePolicy\", unknown field \"spec.foo\""),
                r.out());
        assertNull(API.client().pods().inNamespace("default").withName("bad").get());
    }

    @Test
    void aReplaceWithAnUnknownFieldIsRefused() throws Exception {
        cli.withInput(POD.replace("NAME", "replaced"), "create", "-f", "-").ok();
        Kubectl.Run r = cli.withInput(POD.replace("NAME", "replaced") + "  nodeNmae: n\n", "replace", "-f", "-");
        assertEquals(1, r.exit(), r.out());
        assertTrue(
                r.out()
                        .contains("Pod in version \"v1\" cannot be handled as a Pod: strict decoding error:"
                                + " unknown field \"spec.nodeNmae\""),
                r.out());
    }

    @Test
    void everyBuiltInKindHasTheSchemaOfItsFabric8Class() {
        OpenApiSchemas schemas = new OpenApiSchemas();
        Discovery.GROUPS.forEach((gv, resources) -> resources.stream()
                .filter(r -> !r.name().contains("/") && !gv.contains("koordinator.sh"))
                .forEach(r -> {
                    String root = schemas.root(gv, r.kind());
                    assertTrue(root.startsWith("io.k8s.api."), gv + " " + r.kind() + ": " + root);
                    assertTrue(schemas.schema(root).path("properties").has("metadata"), root);
                }));
    }

    @Test
    void anApplyThatPatchesInAnUnknownFieldIsRefused() throws Exception {
        cli.withInput(POD.replace("NAME", "reapplied"), "apply", "-f", "-").ok();
        // a valid change: a strategic merge patch with its $setElementOrder directive passes
        cli.withInput(POD.replace("NAME", "reapplied").replace("image: pause", "image: pause:2"), "apply", "-f", "-")
                .ok();
        assertEquals(
                "pause:2",
                API.client()
                        .pods()
                        .inNamespace("default")
                        .withName("reapplied")
                        .get()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getImage());
        Kubectl.Run r = cli.withInput(POD.replace("NAME", "reapplied") + "  priorityClass: high\n", "apply", "-f", "-");
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("strict decoding error: unknown field \"spec.priorityClass\""), r.out());
    }

    @Test
    void explainPrintsTheFieldsOfAContainer() throws Exception {
        Kubectl.Run r = cli.run("explain", "pod.spec.containers").ok();
        assertTrue(r.out().contains("KIND:") && r.out().contains("Pod"), r.out());
        for (String field : new String[] {"image", "resources", "volumeMounts", "readinessProbe"}) {
            assertTrue(r.out().contains(field), field + " in\n" + r.out());
        }
    }

    @Test
    void explainDescribesTheFieldsSchedulerUsersRead() throws Exception {
        String tolerations = cli.run("explain", "pod.spec.tolerations").ok().out();
        assertTrue(tolerations.contains("Taints of nodes this pod accepts."), tolerations);
        assertTrue(tolerations.contains("operator\t<string>\n    Equal (the default"), tolerations);
        String spread = cli.run("explain", "pod.spec.topologySpreadConstraints.maxSkew")
                .ok()
                .out();
        assertTrue(spread.contains("FIELD: maxSkew <integer>"), spread);
        assertTrue(spread.contains("How much the count of matching pods in a domain may exceed"), spread);
        // a field whose type is a kind of its own: the field's words, then the type's
        String affinity = cli.run("explain", "pod.spec.affinity").ok().out();
        assertTrue(affinity.contains("FIELD: affinity <Affinity>"), affinity);
        assertTrue(affinity.contains("Scheduling constraints by labels of nodes and of other pods."), affinity);
        String taints = cli.run("explain", "node.spec").ok().out();
        assertTrue(taints.contains("taints\t<[]Taint>\n    Taints repel pods"), taints);
        assertTrue(taints.contains("unschedulable\t<boolean>\n    True for a cordoned node"), taints);
    }

    private static final String LIST = "apiVersion: v1\nkind: List\nitems:\n"
            + "- {apiVersion: v1, kind: ConfigMap, metadata: {name: listed}, data: {a: \"1\"}}\n"
            + "- apiVersion: v1\n  kind: Pod\n  metadata: {name: listed}\n"
            + "  spec: {containers: [{name: c, image: pause}]}\n";

    @Test
    void aListManifestIsValidatedByKubectlWithTheProtobufDocument() throws Exception {
        Kubectl.Run bad =
                cli.withInput(LIST.replace("image: pause", "image: pause, imagePolcy: x"), "apply", "-f", "-");
        assertEquals(1, bad.exit(), bad.out());
        assertTrue(
                bad.out()
                        .contains("ValidationError(Pod.spec.containers[0]): unknown field \"imagePolcy\" in"
                                + " io.k8s.api.core.Container"),
                bad.out());
        assertNull(API.client()
                .configMaps()
                .inNamespace("default")
                .withName("listed")
                .get());

        Kubectl.Run r = cli.withInput(LIST, "apply", "-f", "-").ok();
        assertTrue(r.out().contains("configmap/listed created") && r.out().contains("pod/listed created"), r.out());
        assertNotNull(
                API.client().pods().inNamespace("default").withName("listed").get());
    }

    @Test
    void theV2DocumentInProtobufHasTheDefinitions() throws Exception {
        java.net.http.HttpResponse<byte[]> r = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(
                                        java.net.URI.create(API.server().url() + "/openapi/v2"))
                                .header("Accept", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf")
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        // openapi_v2.Document: swagger = 1, definitions = 9 (repeated NamedSchema = 1, its name = 1)
        com.google.protobuf.UnknownFieldSet doc = com.google.protobuf.UnknownFieldSet.parseFrom(r.body());
        assertEquals("2.0", doc.getField(1).getLengthDelimitedList().get(0).toStringUtf8());
        com.google.protobuf.UnknownFieldSet definitions = com.google.protobuf.UnknownFieldSet.parseFrom(
                doc.getField(9).getLengthDelimitedList().get(0));
        java.util.List<String> names = definitions.getField(1).getLengthDelimitedList().stream()
                .map(b -> {
                    try {
                        return com.google.protobuf.UnknownFieldSet.parseFrom(b)
                                .getField(1)
                                .getLengthDelimitedList()
                                .get(0)
                                .toStringUtf8();
                    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                        throw new AssertionError(e);
                    }
                })
                .toList();
        assertTrue(names.contains("io.k8s.api.core.PodSpec"), names.toString());
        assertTrue(names.contains("io.k8s.api.apps.Deployment"), names.toString());
    }

    @Test
    void theIndexNamesEveryServedGroupVersion() throws Exception {
        JsonNode index = get("/openapi/v3");
        assertTrue(
                index.path("paths")
                        .path("api/v1")
                        .path("serverRelativeURL")
                        .asText()
                        .startsWith("/openapi/v3/api/v1?hash="),
                index.toString());
        JsonNode apps = get("/openapi/v3/apis/apps/v1");
        JsonNode spec = apps.path("components")
                .path("schemas")
                .path("io.k8s.api.apps.DeploymentSpec")
                .path("properties");
        assertEquals("integer", spec.path("replicas").path("type").asText(), spec.toString());
        assertEquals(
                "#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString",
                apps.path("components")
                        .path("schemas")
                        .path("io.k8s.api.apps.RollingUpdateDeployment")
                        .path("properties")
                        .path("maxSurge")
                        .path("$ref")
                        .asText());
        JsonNode v2 = get("/openapi/v2");
        assertTrue(v2.path("definitions").has("io.k8s.api.core.PodSpec"), "v2 definitions");
    }

    @Test
    void warnServesTheObjectWithAWarningAndNoDirectiveChecksNothing() throws Exception {
        HttpResponse<String> warned = configMapWithUnknownField("warned", "?fieldValidation=Warn");
        assertEquals(201, warned.statusCode(), warned.body());
        assertEquals(
                "299 - \"unknown field \\\"datum\\\"\"",
                warned.headers().firstValue("Warning").orElse(null));
        HttpResponse<String> plain = configMapWithUnknownField("plain", "");
        assertEquals(201, plain.statusCode(), plain.body());
        assertTrue(plain.headers().firstValue("Warning").isEmpty());
    }

    private static HttpResponse<String> configMapWithUnknownField(String name, String query) throws Exception {
        String body =
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"},\"datum\":{}}";
        return Http.send(
                API.server().url(),
                "POST",
                "/api/v1/namespaces/default/configmaps" + query,
                "application/json",
                body.getBytes(StandardCharsets.UTF_8),
                "application/json");
    }

    private static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = Http.send(API.server().url(), "GET", path, null, null, "application/json");
        assertEquals(200, r.statusCode(), r.body());
        return JsonMapper.builder().build().readTree(r.body());
    }
}
