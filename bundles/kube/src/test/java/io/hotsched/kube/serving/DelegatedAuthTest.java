package io.hotsched.kube.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hotsched.core.metrics.SchedulerEndpoints;
import io.hotsched.core.metrics.SchedulerMetrics;
import io.hotsched.embedded.EmbeddedApiServer;
import jakarta.servlet.DispatcherType;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's endpoints behind the delegated authentication filter, on Jetty, with the
 * embedded API server's TokenReview and SubjectAccessReview deciding, all over HTTP.
 */
class DelegatedAuthTest {

    private EmbeddedApiServer api;
    private KubernetesClient client;
    private Server server;
    private String base;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        api = new EmbeddedApiServer().start(0);
        client = api.client();
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder endpoints =
                new ServletHolder(new SchedulerEndpoints(new SchedulerMetrics(), () -> null, () -> null));
        SchedulerEndpoints.PATHS.forEach(p -> context.addServlet(endpoints, p));
        context.addFilter(
                new FilterHolder(new DelegatedAuthFilter(
                        new ApiServerReviewer(client), AlwaysAllowPaths.parse("/healthz,/readyz,/livez"))),
                "/*",
                EnumSet.of(DispatcherType.REQUEST));
        server.setHandler(context);
        server.start();
        base = "http://127.0.0.1:" + connector.getLocalPort();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
        api.close();
    }

    private HttpResponse<String> get(String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String serviceAccountToken(String name) throws Exception {
        client.serviceAccounts()
                .inNamespace("monitoring")
                .resource(new ServiceAccountBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .create();
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(
                                api.url() + "/api/v1/namespaces/monitoring/serviceaccounts/" + name + "/token"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"spec\":{}}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        return r.body().replaceAll(".*\"token\":\"([^\"]+)\".*", "$1");
    }

    @Test
    void probesAreAlwaysAllowed() throws Exception {
        for (String p : new String[] {"/healthz", "/readyz", "/livez"}) {
            HttpResponse<String> r = get(p, null);
            assertEquals(200, r.statusCode(), p);
            assertEquals("ok", r.body());
        }
    }

    @Test
    void anonymousMetricsAreForbiddenAndABadTokenIsUnauthorized() throws Exception {
        HttpResponse<String> anonymous = get("/metrics", null);
        assertEquals(403, anonymous.statusCode());
        assertTrue(
                anonymous.body().contains("forbidden: User \\\"system:anonymous\\\" cannot get path \\\"/metrics\\\""),
                anonymous.body());
        HttpResponse<String> bad = get("/metrics", "not-a-token");
        assertEquals(401, bad.statusCode());
        assertTrue(bad.body().contains("\"reason\":\"Unauthorized\""), bad.body());
    }

    @Test
    void aServiceAccountWithTheRightRbacReadsMetrics() throws Exception {
        String token = serviceAccountToken("prometheus");
        HttpResponse<String> before = get("/metrics", token);
        assertEquals(403, before.statusCode());
        assertTrue(before.body().contains("system:serviceaccount:monitoring:prometheus"), before.body());

        client.rbac()
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
        client.rbac()
                .clusterRoleBindings()
                .resource(new ClusterRoleBindingBuilder()
                        .withNewMetadata()
                        .withName("prometheus-metrics")
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "metrics-reader")
                        .addNewSubject()
                        .withKind("ServiceAccount")
                        .withName("prometheus")
                        .withNamespace("monitoring")
                        .endSubject()
                        .build())
                .create();
        // another user: the first one's denial is kept for 10 s, as upstream keeps it
        String granted = serviceAccountToken("prometheus-2");
        client.rbac()
                .clusterRoleBindings()
                .resource(new ClusterRoleBindingBuilder()
                        .withNewMetadata()
                        .withName("prometheus-2-metrics")
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "metrics-reader")
                        .addNewSubject()
                        .withKind("ServiceAccount")
                        .withName("prometheus-2")
                        .withNamespace("monitoring")
                        .endSubject()
                        .build())
                .create();
        HttpResponse<String> after = get("/metrics", granted);
        assertEquals(200, after.statusCode(), after.body());
        assertTrue(after.body().contains("scheduler_pending_pods"), after.body());
    }
}
