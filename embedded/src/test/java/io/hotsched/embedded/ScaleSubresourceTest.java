package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.hotsched.embedded.standins.StandIn;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The scale subresource over HTTP: fabric8's scale(), raw PUT and PATCH, and the real kubectl scale. */
class ScaleSubresourceTest {

    @RegisterExtension
    static final ApiServer API = new ApiServer().withStandIns(EnumSet.of(StandIn.DEPLOYMENT, StandIn.REPLICASET));

    private static void deployment(String ns, String name, int replicas) {
        API.client()
                .apps()
                .deployments()
                .inNamespace(ns)
                .resource(TestObjects.deployment(name, replicas))
                .create();
    }

    private static HttpResponse<String> send(String method, String path, String type, String body) throws Exception {
        return Http.send(API.server().url(), method, path, type, body.getBytes(StandardCharsets.UTF_8), null);
    }

    /** An autoscaling/v1 Scale as JSON. */
    private static String scale(String metadata, int replicas) {
        return "{\"kind\":\"Scale\",\"apiVersion\":\"autoscaling/v1\",\"metadata\":" + metadata
                + ",\"spec\":{\"replicas\":" + replicas + "}}";
    }

    private static void podsUntil(String ns, String app, int n) throws Exception {
        API.podsUntil(ns, app, l -> l.size() == n);
    }

    @Test
    void scaleReadsAndWritesReplicasThroughFabric8AndRawRequests() throws Exception {
        deployment("scale", "web", 5);
        var web = API.client().apps().deployments().inNamespace("scale").withName("web");
        podsUntil("scale", "web", 5);
        Scale s = web.scale();
        assertEquals(5, s.getSpec().getReplicas());
        assertEquals("app=web", s.getStatus().getSelector());

        web.scale(2);
        podsUntil("scale", "web", 2);
        assertEquals(2, web.get().getSpec().getReplicas());

        String path = "/apis/apps/v1/namespaces/scale/deployments/web/scale";
        HttpResponse<String> merge = send("PATCH", path, "application/merge-patch+json", "{\"spec\":{\"replicas\":3}}");
        assertEquals(200, merge.statusCode(), merge.body());
        assertTrue(merge.body().contains("\"kind\":\"Scale\""), merge.body());
        assertTrue(merge.body().contains("\"replicas\":3"), merge.body());
        podsUntil("scale", "web", 3);

        HttpResponse<String> jsonPatch = send(
                "PATCH",
                path,
                "application/json-patch+json",
                "[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":1}]");
        assertEquals(200, jsonPatch.statusCode(), jsonPatch.body());
        podsUntil("scale", "web", 1);

        HttpResponse<String> negative = send("PUT", path, "application/json", scale("{\"name\":\"web\"}", -1));
        assertEquals(422, negative.statusCode());
        assertTrue(negative.body().contains("spec.replicas: Invalid value: -1: must be greater than or equal to 0"));

        HttpResponse<String> stale =
                send("PUT", path, "application/json", scale("{\"name\":\"web\",\"resourceVersion\":\"1\"}", 4));
        assertEquals(409, stale.statusCode(), stale.body());

        HttpResponse<String> missing = send(
                "PATCH", "/apis/apps/v1/namespaces/scale/deployments/nope/scale", "application/merge-patch+json", "{}");
        assertEquals(404, missing.statusCode());
        assertTrue(missing.body().contains("deployments.apps \\\"nope\\\" not found"), missing.body());
    }

    @Test
    void statefulSetScaleNamesItsSelector() throws Exception {
        API.client()
                .apps()
                .statefulSets()
                .inNamespace("scale")
                .resource(new StatefulSetBuilder()
                        .withNewMetadata()
                        .withName("db")
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(2)
                        .withNewSelector()
                        .addToMatchLabels("app", "db")
                        .addNewMatchExpression()
                        .withKey("tier")
                        .withOperator("In")
                        .withValues("a", "b")
                        .endMatchExpression()
                        .endSelector()
                        .endSpec()
                        .build())
                .create();
        Scale s = API.client()
                .apps()
                .statefulSets()
                .inNamespace("scale")
                .withName("db")
                .scale();
        assertEquals(2, s.getSpec().getReplicas());
        assertEquals("app=db,tier in (a,b)", s.getStatus().getSelector());
    }

    @Test
    void kubectlScaleGivesPods(@TempDir Path dir) throws Exception {
        Kubectl kubectl = new Kubectl(API.kubeconfig(dir));
        deployment("kubectl", "api", 1);
        podsUntil("kubectl", "api", 1);
        String out = kubectl.run("-n", "kubectl", "scale", "deployment", "api", "--replicas=4")
                .ok()
                .out();
        assertEquals("deployment.apps/api scaled", out.strip());
        podsUntil("kubectl", "api", 4);
        assertEquals(
                "4",
                kubectl.run("-n", "kubectl", "get", "deployment", "api", "-o", "jsonpath={.spec.replicas}")
                        .ok()
                        .out());
    }
}
