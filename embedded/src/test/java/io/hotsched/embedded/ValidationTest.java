package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** What kube-apiserver refuses on create and update, with its 422 Status and words, over HTTP and with kubectl. */
class ValidationTest {

    @TempDir
    static Path dir;

    @RegisterExtension
    static final ApiServer API = new ApiServer().withNodes("node-v");

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String PODS = "/api/v1/namespaces/default/pods";
    static final String SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric"
            + " characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com',"
            + " regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

    static Kubectl cli;

    @BeforeAll
    static void kubeconfig() throws IOException {
        cli = new Kubectl(API.kubeconfig(dir));
    }

    static HttpResponse<String> send(String method, String path, String type, String body) throws Exception {
        return Http.send(API.server().url(), method, path, type, body.getBytes(StandardCharsets.UTF_8), null);
    }

    static HttpResponse<String> post(String path, String json) throws Exception {
        return send("POST", path, "application/json", json);
    }

    static HttpResponse<String> patchNode(String mergePatch) throws Exception {
        return send("PATCH", "/api/v1/nodes/node-v", Patches.MERGE_PATCH, mergePatch);
    }

    static String pod(String metadata, String spec) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":" + metadata + ",\"spec\":" + spec + "}";
    }

    static final String PAUSE = "{\"containers\":[{\"name\":\"c\",\"image\":\"pause\"}]}";

    /** The Status of a 422, checked for its shape. */
    static JsonNode invalid(HttpResponse<String> r) throws Exception {
        assertEquals(422, r.statusCode(), r.body());
        JsonNode s = JSON.readTree(r.body());
        assertEquals("Status", s.path("kind").asText());
        assertEquals("Failure", s.path("status").asText());
        assertEquals("Invalid", s.path("reason").asText());
        assertEquals(422, s.path("code").asInt());
        return s;
    }

    @Test
    void aPodNameThatIsNotASubdomainIsRefusedWithKubeApiserversStatus() throws Exception {
        JsonNode s = invalid(post(PODS, pod("{\"name\":\"Foo_bar\"}", PAUSE)));
        assertEquals(
                "Pod \"Foo_bar\" is invalid: metadata.name: Invalid value: \"Foo_bar\": " + SUBDOMAIN,
                s.path("message").asText());
        JsonNode details = s.path("details");
        assertEquals("Foo_bar", details.path("name").asText());
        assertEquals("Pod", details.path("kind").asText());
        assertFalse(details.has("group"));
        JsonNode cause = details.path("causes").get(0);
        assertEquals("FieldValueInvalid", cause.path("reason").asText());
        assertEquals("metadata.name", cause.path("field").asText());
        assertEquals(
                "Invalid value: \"Foo_bar\": " + SUBDOMAIN,
                cause.path("message").asText());
    }

    @Test
    void kubectlPrintsTheRefusal() throws Exception {
        Kubectl.Run r = cli.withInput(
                "apiVersion: v1\nkind: Pod\nmetadata: {name: Foo_bar}\nspec: {containers: [{name: c, image: pause}]}\n",
                "create",
                "-f",
                "-");
        assertEquals(1, r.exit(), r.out());
        assertTrue(
                r.out()
                        .contains("The Pod \"Foo_bar\" is invalid: metadata.name: Invalid value: \"Foo_bar\": "
                                + SUBDOMAIN),
                r.out());
    }

    @Test
    void namespacesAreLabelsAndServicesRfc1035Labels() throws Exception {
        JsonNode ns = invalid(post(
                "/api/v1/namespaces",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"a.b\"}}"));
        assertEquals(
                "Namespace \"a.b\" is invalid: metadata.name: Invalid value: \"a.b\": must not contain dots",
                ns.path("message").asText());
        String tooLong = "a".repeat(64);
        assertEquals(
                "Namespace \"" + tooLong + "\" is invalid: metadata.name: Invalid value: \"" + tooLong
                        + "\": must be no more than 63 characters",
                invalid(post(
                                "/api/v1/namespaces",
                                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + tooLong
                                        + "\"}}"))
                        .path("message")
                        .asText());
        JsonNode svc = invalid(post(
                "/api/v1/namespaces/default/services",
                "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"1svc\"},\"spec\":{}}"));
        assertEquals(
                "Service \"1svc\" is invalid: metadata.name: Invalid value: \"1svc\": a DNS-1035 label must consist of"
                        + " lower case alphanumeric characters or '-', start with an alphabetic character, and end"
                        + " with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation"
                        + " is '[a-z]([-a-z0-9]*[a-z0-9])?')",
                svc.path("message").asText());
    }

    @Test
    void aNameOrGenerateNameIsRequiredAndSeveralErrorsAreListed() throws Exception {
        JsonNode none = invalid(post(PODS, pod("{}", PAUSE)));
        assertEquals(
                "Pod \"\" is invalid: metadata.name: Required value: name or generateName is required",
                none.path("message").asText());
        assertEquals(201, post(PODS, pod("{\"generateName\":\"web-\"}", PAUSE)).statusCode());
        String longName = "x".repeat(250) + "_abc";
        JsonNode both = invalid(post(PODS, pod("{\"name\":\"" + longName + "\"}", PAUSE)));
        assertEquals(
                "Pod \"" + longName + "\" is invalid: [metadata.name: Invalid value: \"" + longName
                        + "\": must be no more than 253 characters, metadata.name: Invalid value: \"" + longName
                        + "\": " + SUBDOMAIN + "]",
                both.path("message").asText());
        assertEquals(2, both.path("details").path("causes").size());
    }

    @Test
    void aPodNeedsNamedContainersWithImages() throws Exception {
        assertEquals(
                "Pod \"empty\" is invalid: spec.containers: Required value",
                invalid(post(PODS, pod("{\"name\":\"empty\"}", "{}")))
                        .path("message")
                        .asText());
        assertEquals(
                "Pod \"bare\" is invalid: [spec.containers[0].name: Required value, spec.containers[0].image:"
                        + " Required value]",
                invalid(post(PODS, pod("{\"name\":\"bare\"}", "{\"containers\":[{}]}")))
                        .path("message")
                        .asText());
        assertEquals(
                "Pod \"twice\" is invalid: spec.containers[1].name: Duplicate value: \"c\"",
                invalid(
                                post(
                                        PODS,
                                        pod(
                                                "{\"name\":\"twice\"}",
                                                "{\"containers\":[{\"name\":\"c\",\"image\":\"a\"},{\"name\":\"c\",\"image\":\"b\"}]}")))
                        .path("message")
                        .asText());
        assertEquals(
                "Pod \"upper\" is invalid: spec.containers[0].name: Invalid value: \"C_1\": a lowercase RFC 1123"
                        + " label must consist of lower case alphanumeric characters or '-', and must start and end"
                        + " with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation"
                        + " is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                invalid(post(
                                PODS,
                                pod("{\"name\":\"upper\"}", "{\"containers\":[{\"name\":\"C_1\",\"image\":\"a\"}]}")))
                        .path("message")
                        .asText());
        assertEquals(
                "Pod \"restart\" is invalid: spec.restartPolicy: Unsupported value: \"Sometimes\": supported values:"
                        + " \"Always\", \"OnFailure\", \"Never\"",
                invalid(
                                post(
                                        PODS,
                                        pod(
                                                "{\"name\":\"restart\"}",
                                                "{\"restartPolicy\":\"Sometimes\",\"containers\":[{\"name\":\"c\",\"image\":\"a\"}]}")))
                        .path("message")
                        .asText());
    }

    @Test
    void labelKeysAndValuesFollowTheirSyntaxOnEveryKind() throws Exception {
        JsonNode s = invalid(post(
                "/api/v1/namespaces/default/configmaps",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"labelled\","
                        + "\"labels\":{\"bad key\":\"ok\",\"good\":\"-bad\"}}}"));
        assertEquals(
                "ConfigMap \"labelled\" is invalid: [metadata.labels: Invalid value: \"bad key\": name part must"
                        + " consist of alphanumeric characters, '-', '_' or '.', and must start and end with an"
                        + " alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for"
                        + " validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), metadata.labels: Invalid"
                        + " value: \"-bad\": a valid label must be an empty string or consist of alphanumeric"
                        + " characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g."
                        + " 'MyValue',  or 'my_value',  or '12345', regex used for validation is"
                        + " '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]",
                s.path("message").asText());
        JsonNode prefixed = invalid(post(
                "/apis/apps/v1/namespaces/default/deployments",
                "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d\","
                        + "\"labels\":{\"Example.com/x\":\"1\"}},\"spec\":{}}"));
        assertTrue(
                prefixed.path("message")
                        .asText()
                        .startsWith("Deployment.apps \"d\" is invalid: metadata.labels: Invalid value:"
                                + " \"Example.com/x\": prefix part a lowercase RFC 1123 subdomain"),
                prefixed.path("message").asText());
        assertEquals("apps", prefixed.path("details").path("group").asText());
        // a patch that makes a label invalid is refused too
        post(
                "/api/v1/namespaces/default/configmaps",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"fine\"}}");
        HttpResponse<String> patched = send(
                "PATCH",
                "/api/v1/namespaces/default/configmaps/fine",
                Patches.MERGE_PATCH,
                "{\"metadata\":{\"labels\":{\"a\":\"b c\"}}}");
        assertTrue(
                invalid(patched).path("message").asText().startsWith("ConfigMap \"fine\" is invalid: metadata.labels"));
    }

    @Test
    void aPodsNodeNameIsSetOnceAndItsSpecOtherwiseKept() throws Exception {
        API.client()
                .pods()
                .inNamespace("default")
                .resource(TestObjects.pod("default", "moved"))
                .create();
        var pods = API.client().pods().inNamespace("default").withName("moved");
        pods.edit(p ->
                new PodBuilder(p).editSpec().withNodeName("node-v").endSpec().build());
        pods.edit(p -> new PodBuilder(p)
                .editSpec()
                .editFirstContainer()
                .withImage("pause:2")
                .endContainer()
                .addNewToleration()
                .withKey("extra")
                .withOperator("Exists")
                .endToleration()
                .endSpec()
                .build());
        Pod p = pods.get();
        assertEquals("node-v", p.getSpec().getNodeName());
        assertEquals("pause:2", p.getSpec().getContainers().get(0).getImage());

        KubernetesClientException moved = org.junit.jupiter.api.Assertions.assertThrows(
                KubernetesClientException.class,
                () -> pods.edit(x -> new PodBuilder(x)
                        .editSpec()
                        .withNodeName("node-w")
                        .endSpec()
                        .build()));
        assertEquals(422, moved.getCode());
        String message = moved.getStatus().getMessage();
        assertTrue(
                message.startsWith("Pod \"moved\" is invalid: spec: Forbidden: " + PodValidation.UPDATABLE + "\n"),
                message);
        assertTrue(message.contains("- \tNodeName: \"node-v\""), message);
        assertTrue(message.contains("+ \tNodeName: \"node-w\""), message);

        KubernetesClientException untolerated = org.junit.jupiter.api.Assertions.assertThrows(
                KubernetesClientException.class,
                () -> pods.edit(x -> new PodBuilder(x)
                        .editSpec()
                        .withTolerations(x.getSpec().getTolerations().stream()
                                .filter(t -> !"extra".equals(t.getKey()))
                                .toList())
                        .endSpec()
                        .build()));
        assertTrue(
                untolerated
                        .getStatus()
                        .getMessage()
                        .contains("spec.tolerations: Forbidden: existing toleration can not be modified except its"
                                + " tolerationSeconds"),
                untolerated.getStatus().getMessage());
        assertEquals("node-v", pods.get().getSpec().getNodeName());
    }

    @Test
    void serverSideApplyOfAPodIsValidatedToo() throws Exception {
        String pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: pinned}\nspec:\n  nodeName: node-v\n"
                + "  containers: [{name: c, image: pause}]\n";
        cli.withInput(pod, "apply", "--server-side", "-f", "-").ok();
        Kubectl.Run r = cli.withInput(pod.replace("node-v", "node-x"), "apply", "--server-side", "-f", "-");
        assertEquals(1, r.exit(), r.out());
        assertTrue(
                r.out()
                        .contains("The Pod \"pinned\" is invalid: spec: Forbidden: pod updates may not change fields"
                                + " other than `spec.containers[*].image`"),
                r.out());
    }

    static final String UNDECODABLE_POD = "Pod in version \"v1\" cannot be handled as a Pod: quantities must match"
            + " the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

    @Test
    void aPodWhoseRequestIsNoQuantityCannotBeDecodedAndIsRefusedWith400() throws Exception {
        for (String spec : new String[] {
            "{\"containers\":[{\"name\":\"c\",\"image\":\"pause\",\"resources\":{\"requests\":{\"cpu\":\"12xyz\"}}}]}",
            "{\"containers\":[{\"name\":\"c\",\"image\":\"pause\"}],\"initContainers\":[{\"name\":\"i\","
                    + "\"image\":\"pause\",\"resources\":{\"limits\":{\"memory\":\"lots\"}}}]}",
            "{\"containers\":[{\"name\":\"c\",\"image\":\"pause\"}],\"overhead\":{\"cpu\":true}}"
        }) {
            HttpResponse<String> r = post(PODS, pod("{\"name\":\"undecodable\"}", spec));
            assertEquals(400, r.statusCode(), spec + " -> " + r.body());
            JsonNode s = JSON.readTree(r.body());
            assertEquals("BadRequest", s.path("reason").asText());
            assertEquals(UNDECODABLE_POD, s.path("message").asText());
        }
        assertEquals(
                404, send("GET", PODS + "/undecodable", "application/json", "").statusCode(), "nothing stored");
        HttpResponse<String> fine = post(
                PODS,
                pod(
                        "{\"name\":\"decodable\"}",
                        "{\"containers\":[{\"name\":\"c\",\"image\":\"pause\",\"resources\":{\"requests\":"
                                + "{\"cpu\":\"1.5\",\"memory\":\"1e3\"},\"limits\":{\"cpu\":2}}}]}"));
        assertEquals(201, fine.statusCode(), fine.body());

        Kubectl.Run k = cli.withInput(
                "apiVersion: v1\nkind: Pod\nmetadata: {name: undecodable}\nspec: {containers: [{name: c, image: pause,"
                        + " resources: {requests: {cpu: 12xyz}}}]}\n",
                "create",
                "-f",
                "-");
        assertEquals(1, k.exit(), k.out());
        assertTrue(k.out().contains("Error from server (BadRequest)") && k.out().contains(UNDECODABLE_POD), k.out());
    }

    @Test
    void nodeTaintsAndPodCidrsAreChecked() throws Exception {
        Kubectl.Run taint = cli.run(
                "patch", "node", "node-v", "-p", "{\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"Sometimes\"}]}}");
        assertEquals(1, taint.exit(), taint.out());
        assertTrue(
                taint.out()
                        .contains("The Node \"node-v\" is invalid: metadata.taints[0].effect: Unsupported value:"
                                + " \"Sometimes\": supported values: \"NoSchedule\", \"PreferNoSchedule\","
                                + " \"NoExecute\""),
                taint.out());
        JsonNode twice = invalid(patchNode("{\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"},"
                + "{\"key\":\"k\",\"value\":\"v\",\"effect\":\"NoSchedule\"}]}}"));
        assertEquals(
                "Node \"node-v\" is invalid: metadata.taints[1]: Duplicate value: core.Taint{Key:\"k\", Value:\"v\","
                        + " Effect:\"NoSchedule\", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect"
                        + " pair",
                twice.path("message").asText());
        JsonNode cidr = invalid(patchNode("{\"spec\":{\"podCIDRs\":[\"10.0.0.0/33\"]}}"));
        assertEquals(
                "Node \"node-v\" is invalid: spec.podCIDRs[0]: Invalid value: []string{\"10.0.0.0/33\"}: must be valid"
                        + " CIDR",
                cidr.path("message").asText());
        assertEquals(
                200, patchNode("{\"spec\":{\"podCIDRs\":[\"10.0.0.0/24\"]}}").statusCode());
        JsonNode changed = invalid(patchNode("{\"spec\":{\"podCIDRs\":[\"10.0.1.0/24\"]}}"));
        assertEquals(
                "Node \"node-v\" is invalid: spec.podCIDRs: Forbidden: node updates may not change podCIDR except from"
                        + " \"\" to valid",
                changed.path("message").asText());
    }
}
