package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Content negotiation over HTTP: the types the server reads, the one it answers in, and its refusals. */
class NegotiationTest {

    /** The body kubectl v1.32.4 sends for {@code kubectl create namespace x} (captured with -v=9). */
    private static final String KUBECTL_CREATE_NAMESPACE_X = "6b3873000a0f0a02763112094e616d6573706163651219"
            + "0a110a017812001a0022002a0032003800420012001a020a001a002200";

    @RegisterExtension
    static final ApiServer API = new ApiServer();

    private static HttpResponse<String> send(String method, String path, String contentType, byte[] body, String accept)
            throws Exception {
        return Http.send(API.server().url(), method, path, contentType, body, accept);
    }

    private static byte[] envelope(String apiVersion, String kind, ByteString raw) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {'k', '8', 's', 0});
        Runtime.Unknown.newBuilder()
                .setTypeMeta(Runtime.TypeMeta.newBuilder()
                        .setApiVersion(apiVersion)
                        .setKind(kind)
                        .build())
                .setRaw(raw)
                .build()
                .writeTo(out);
        return out.toByteArray();
    }

    @Test
    void kubectlsProtobufNamespaceIsCreatedAndReadBackAsJson() throws Exception {
        HttpResponse<String> created = send(
                "POST",
                "/api/v1/namespaces?fieldManager=kubectl-create&fieldValidation=Strict",
                "application/vnd.kubernetes.protobuf",
                HexFormat.of().parseHex(KUBECTL_CREATE_NAMESPACE_X),
                "application/vnd.kubernetes.protobuf,application/json");
        assertEquals(201, created.statusCode(), created.body());
        assertEquals(
                "application/json", created.headers().firstValue("Content-Type").orElse(null));
        assertEquals(
                "x", API.client().namespaces().withName("x").get().getMetadata().getName());
        // the empty strings and the zero time of the protobuf's non-pointer fields are not stored
        assertTrue(
                !created.body().contains("\"generateName\"") && !created.body().contains("\"selfLink\""),
                created.body());
    }

    @Test
    void aProtobufDeploymentKeepsNumbersMapsQuantitiesAndIntOrStrings() throws Exception {
        V1.PodSpec spec = V1.PodSpec.newBuilder()
                .addContainers(V1.Container.newBuilder()
                        .setName("nginx")
                        .setImage("nginx")
                        .setResources(V1.ResourceRequirements.newBuilder()
                                .putRequests(
                                        "cpu",
                                        Resource.Quantity.newBuilder()
                                                .setString("100m")
                                                .build())))
                .setTerminationGracePeriodSeconds(0)
                .build();
        V1Apps.Deployment d = V1Apps.Deployment.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("web").putLabels("app", "web"))
                .setSpec(V1Apps.DeploymentSpec.newBuilder()
                        .setReplicas(0)
                        .setSelector(Meta.LabelSelector.newBuilder().putMatchLabels("app", "web"))
                        .setStrategy(V1Apps.DeploymentStrategy.newBuilder()
                                .setType("RollingUpdate")
                                .setRollingUpdate(V1Apps.RollingUpdateDeployment.newBuilder()
                                        .setMaxSurge(IntStr.IntOrString.newBuilder()
                                                .setType(1)
                                                .setStrVal("25%"))
                                        .setMaxUnavailable(IntStr.IntOrString.newBuilder()
                                                .setType(0)
                                                .setIntVal(1))))
                        .setTemplate(V1.PodTemplateSpec.newBuilder()
                                .setMetadata(Meta.ObjectMeta.newBuilder().putLabels("app", "web"))
                                .setSpec(spec)))
                .build();
        HttpResponse<String> created = send(
                "POST",
                "/apis/apps/v1/namespaces/default/deployments",
                "application/vnd.kubernetes.protobuf",
                envelope("apps/v1", "Deployment", d.toByteString()),
                null);
        assertEquals(201, created.statusCode(), created.body());
        Deployment stored = API.client()
                .apps()
                .deployments()
                .inNamespace("default")
                .withName("web")
                .get();
        assertEquals(0, stored.getSpec().getReplicas(), "an explicit 0 of a pointer field is kept");
        assertEquals("web", stored.getMetadata().getLabels().get("app"));
        assertEquals(
                "25%",
                stored.getSpec().getStrategy().getRollingUpdate().getMaxSurge().getStrVal());
        assertEquals(
                1,
                stored.getSpec()
                        .getStrategy()
                        .getRollingUpdate()
                        .getMaxUnavailable()
                        .getIntVal());
        var container = stored.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("100m", container.getResources().getRequests().get("cpu").toString());
        assertEquals(0L, stored.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds());
    }

    @Test
    void aProtobufKindWithoutDescriptorIsRefusedByName() throws Exception {
        HttpResponse<String> r = send(
                "POST",
                "/apis/coordination.k8s.io/v1/namespaces/default/leases",
                "application/vnd.kubernetes.protobuf",
                envelope("coordination.k8s.io/v1", "Lease", ByteString.EMPTY),
                null);
        assertEquals(415, r.statusCode(), r.body());
        assertTrue(
                r.body().contains("\"reason\":\"UnsupportedMediaType\"")
                        && r.body().contains("Lease"),
                r.body());
    }

    @Test
    void aBodyInAnUnknownFormatGetsKubeApiserversUnsupportedMediaType() throws Exception {
        HttpResponse<String> r = send("POST", "/api/v1/namespaces", "text/plain", "name: y".getBytes(), null);
        assertEquals(415, r.statusCode());
        assertTrue(
                r.body()
                        .contains("the body of the request was in an unknown format - accepted media types include: "
                                + "application/json, application/yaml, application/vnd.kubernetes.protobuf"),
                r.body());
    }

    @Test
    void aYamlBodyIsRead() throws Exception {
        HttpResponse<String> r = send(
                "POST",
                "/api/v1/namespaces",
                "application/yaml",
                "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: from-yaml\n".getBytes(),
                null);
        assertEquals(201, r.statusCode(), r.body());
        assertEquals(
                "from-yaml",
                API.client()
                        .namespaces()
                        .withName("from-yaml")
                        .get()
                        .getMetadata()
                        .getName());
    }

    @Test
    void anAcceptWithoutJsonIsRefusedAndOneWithJsonIsAnsweredInJson() throws Exception {
        HttpResponse<String> protobufOnly =
                send("GET", "/api/v1/namespaces", null, null, "application/vnd.kubernetes.protobuf");
        assertEquals(406, protobufOnly.statusCode());
        assertTrue(protobufOnly.body().contains("only the following media types are accepted: application/json"));
        // the one protobuf answer there is: the OpenAPI v2 document (OpenApiTest reads it)
        HttpResponse<String> openApiV2 =
                send("GET", "/openapi/v2", null, null, "application/com.github.proto-openapi.spec.v2@v1.0+protobuf");
        assertEquals(200, openApiV2.statusCode());
        assertEquals(
                "application/com.github.proto-openapi.spec.v2.v1.0+protobuf",
                openApiV2.headers().firstValue("Content-Type").orElse(null));
        HttpResponse<String> secondOpenApiV2 =
                send("GET", "/openapi/v2", null, null, "application/vnd.kubernetes.protobuf,application/json");
        assertEquals(
                "application/json",
                secondOpenApiV2.headers().firstValue("Content-Type").orElse(null));

        HttpResponse<String> either =
                send("GET", "/api/v1/namespaces", null, null, "application/vnd.kubernetes.protobuf,application/json");
        assertEquals(200, either.statusCode());
        assertEquals(
                "application/json", either.headers().firstValue("Content-Type").orElse(null));
    }

    @Test
    void aMissingObjectIsAnsweredWithANotFoundStatus() throws Exception {
        HttpResponse<String> r = send("GET", "/api/v1/namespaces/default/pods/nope", null, null, null);
        assertEquals(404, r.statusCode());
        assertTrue(r.body().contains("\"message\":\"pods \\\"nope\\\" not found\""), r.body());
        assertTrue(r.body().contains("\"reason\":\"NotFound\""), r.body());
    }
}
