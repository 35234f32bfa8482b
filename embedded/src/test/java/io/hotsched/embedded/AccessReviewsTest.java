package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** TokenRequest, TokenReview and SubjectAccessReview over HTTP, decided from stored RBAC objects. */
class AccessReviewsTest {

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final String SA_USER = "system:serviceaccount:kube-system:hotsched";
    private final ApiServer api = new ApiServer();

    @BeforeEach
    void start() throws Exception {
        api.start();
        api.client()
                .serviceAccounts()
                .inNamespace("kube-system")
                .resource(new ServiceAccountBuilder()
                        .withNewMetadata()
                        .withName("hotsched")
                        .endMetadata()
                        .build())
                .create();
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private JsonNode post(String path, String body, int expected) throws Exception {
        HttpResponse<String> r = Http.send(
                api.server().url(),
                "POST",
                path,
                "application/json",
                body.getBytes(StandardCharsets.UTF_8),
                "application/json");
        assertEquals(expected, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private String token() throws Exception {
        JsonNode tr = post(
                "/api/v1/namespaces/kube-system/serviceaccounts/hotsched/token",
                "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\",\"spec\":{\"expirationSeconds\":600}}",
                201);
        assertEquals("TokenRequest", tr.path("kind").asText());
        return tr.path("status").path("token").asText();
    }

    private JsonNode tokenReview(String token) throws Exception {
        return post(
                        "/apis/authentication.k8s.io/v1/tokenreviews",
                        "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenReview\",\"spec\":{\"token\":\""
                                + token + "\"}}",
                        201)
                .path("status");
    }

    private boolean allowed(String user, String groups, String attributes) throws Exception {
        JsonNode status = post(
                        "/apis/authorization.k8s.io/v1/subjectaccessreviews",
                        "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SubjectAccessReview\",\"spec\":{\"user\":\""
                                + user + "\",\"groups\":" + groups + "," + attributes + "}}",
                        201)
                .path("status");
        return status.path("allowed").asBoolean();
    }

    @Test
    void aServiceAccountTokenIsReviewedAsItsServiceAccount() throws Exception {
        JsonNode status = tokenReview(token());
        assertTrue(status.path("authenticated").asBoolean(), status.toString());
        assertEquals(SA_USER, status.path("user").path("username").asText());
        assertTrue(status.path("user").path("groups").toString().contains("system:serviceaccounts:kube-system"));

        JsonNode bogus = tokenReview("not-a-token");
        assertFalse(bogus.path("authenticated").asBoolean());
        assertEquals("invalid bearer token", bogus.path("error").asText());
    }

    @Test
    void aTokenOfADeletedServiceAccountNoLongerAuthenticates() throws Exception {
        String token = token();
        api.client()
                .serviceAccounts()
                .inNamespace("kube-system")
                .withName("hotsched")
                .delete();
        JsonNode status = tokenReview(token);
        assertFalse(status.path("authenticated").asBoolean());
        assertEquals(
                "service account kube-system/hotsched has been deleted",
                status.path("error").asText());
    }

    @Test
    void aTokenForAnUnknownServiceAccountIsNotIssued() throws Exception {
        post("/api/v1/namespaces/kube-system/serviceaccounts/nobody/token", "{}", 404);
    }

    @Test
    void nonResourceUrlsFollowClusterRoleBindings() throws Exception {
        String groups = "[\"system:serviceaccounts\",\"system:authenticated\"]";
        String metrics = "\"nonResourceAttributes\":{\"path\":\"/metrics\",\"verb\":\"get\"}";
        assertFalse(allowed(SA_USER, groups, metrics));
        api.client()
                .rbac()
                .clusterRoles()
                .resource(new ClusterRoleBuilder()
                        .withNewMetadata()
                        .withName("metrics-reader")
                        .endMetadata()
                        .addNewRule()
                        .withNonResourceURLs("/metrics")
                        .withVerbs("get")
                        .endRule()
                        .build())
                .create();
        api.client()
                .rbac()
                .clusterRoleBindings()
                .resource(new ClusterRoleBindingBuilder()
                        .withNewMetadata()
                        .withName("hotsched-metrics")
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "metrics-reader")
                        .addNewSubject()
                        .withKind("ServiceAccount")
                        .withName("hotsched")
                        .withNamespace("kube-system")
                        .endSubject()
                        .build())
                .create();
        assertTrue(allowed(SA_USER, groups, metrics));
        assertFalse(allowed(SA_USER, groups, "\"nonResourceAttributes\":{\"path\":\"/metrics\",\"verb\":\"post\"}"));
        assertFalse(allowed("system:anonymous", "[\"system:unauthenticated\"]", metrics));
        assertTrue(allowed("root", "[\"system:masters\"]", metrics));
    }

    @Test
    void resourceRulesOfARoleHoldInItsNamespaceOnly() throws Exception {
        api.client()
                .rbac()
                .roles()
                .inNamespace("demo")
                .resource(new RoleBuilder()
                        .withNewMetadata()
                        .withName("pod-binder")
                        .endMetadata()
                        .addNewRule()
                        .withApiGroups("")
                        .withResources("pods/binding")
                        .withVerbs("create")
                        .endRule()
                        .build())
                .create();
        api.client()
                .rbac()
                .roleBindings()
                .inNamespace("demo")
                .resource(new RoleBindingBuilder()
                        .withNewMetadata()
                        .withName("binder")
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "Role", "pod-binder")
                        .addNewSubject()
                        .withKind("User")
                        .withName("alice")
                        .endSubject()
                        .build())
                .create();
        String bind = "\"resourceAttributes\":{\"namespace\":\"%s\",\"verb\":\"create\",\"resource\":\"pods\","
                + "\"subresource\":\"binding\"}";
        assertTrue(allowed("alice", "[]", bind.formatted("demo")));
        assertFalse(allowed("alice", "[]", bind.formatted("other")));
        assertFalse(allowed("bob", "[]", bind.formatted("demo")));
        assertFalse(allowed(
                "alice",
                "[]",
                "\"resourceAttributes\":{\"namespace\":\"demo\",\"verb\":\"create\",\"resource\":\"pods\"}"));
    }
}
