package io.hotsched.embedded;

import static io.hotsched.embedded.ApiServer.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.hotsched.embedded.standins.StandIn;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The eviction API against PodDisruptionBudgets whose status the disruption controller stand-in
 * keeps, over HTTP, and kubectl drain through it.
 */
class EvictionTest {

    @RegisterExtension
    final ApiServer api = new ApiServer().withNodes("n1").withStandIns(EnumSet.of(StandIn.KUBELET, StandIn.DISRUPTION));

    @TempDir
    Path dir;

    /** {@code count} pods app={@code app} on n1, Running and Ready by the kubelet stand-in. */
    private void runningPods(String app, int count, ReplicaSet owner) throws Exception {
        for (int i = 0; i < count; i++) {
            PodBuilder b = new PodBuilder(TestObjects.pod("default", app + "-" + i, app))
                    .editSpec()
                    .withNodeName("n1")
                    .endSpec();
            if (owner != null) {
                b.editMetadata()
                        .addNewOwnerReference()
                        .withApiVersion("apps/v1")
                        .withKind("ReplicaSet")
                        .withName(owner.getMetadata().getName())
                        .withUid(owner.getMetadata().getUid())
                        .withController(true)
                        .endOwnerReference()
                        .endMetadata();
            }
            api.client().pods().inNamespace("default").resource(b.build()).create();
        }
        api.podsUntil(
                "default",
                app,
                l -> l.size() == count
                        && l.stream()
                                .allMatch(p -> p.getStatus().getConditions().stream()
                                        .anyMatch(c -> c.getType().equals("Ready")
                                                && c.getStatus().equals("True"))));
    }

    private PodDisruptionBudget budget(String name, String app, IntOrString minAvailable, IntOrString maxUnavailable) {
        return api.client()
                .policy()
                .v1()
                .podDisruptionBudget()
                .inNamespace("default")
                .resource(new PodDisruptionBudgetBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewSpec()
                        .withMinAvailable(minAvailable)
                        .withMaxUnavailable(maxUnavailable)
                        .withNewSelector()
                        .addToMatchLabels("app", app)
                        .endSelector()
                        .endSpec()
                        .build())
                .create();
    }

    private PodDisruptionBudget statusUntil(String name, java.util.function.Predicate<PodDisruptionBudget> test) {
        return until(
                api.client()
                        .policy()
                        .v1()
                        .podDisruptionBudget()
                        .inNamespace("default")
                        .withName(name),
                b -> b.getStatus() != null && b.getStatus().getObservedGeneration() != null && test.test(b));
    }

    private HttpResponse<String> evict(String pod) throws Exception {
        String body = "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"" + pod
                + "\",\"namespace\":\"default\"}}";
        return Http.send(
                api.server().url(),
                "POST",
                "/api/v1/namespaces/default/pods/" + pod + "/eviction",
                "application/json",
                body.getBytes(StandardCharsets.UTF_8),
                "application/json");
    }

    @Test
    void anEvictionTakesOneOfTheBudgetsDisruptionsAndTheNextIsRefused() throws Exception {
        runningPods("web", 3, null);
        budget("web-pdb", "web", new IntOrString(2), null);
        PodDisruptionBudget b = statusUntil("web-pdb", x -> x.getStatus().getDisruptionsAllowed() == 1);
        assertEquals(3, b.getStatus().getExpectedPods());
        assertEquals(2, b.getStatus().getDesiredHealthy());
        assertEquals(3, b.getStatus().getCurrentHealthy());
        assertEquals("SufficientPods", b.getStatus().getConditions().get(0).getReason());

        assertEquals(201, evict("web-0").statusCode());
        assertNull(api.client().pods().inNamespace("default").withName("web-0").get());
        statusUntil(
                "web-pdb",
                x -> x.getStatus().getCurrentHealthy() == 2 && x.getStatus().getDisruptionsAllowed() == 0);

        HttpResponse<String> refused = evict("web-1");
        assertEquals(429, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("Cannot evict pod as it would violate the pod's disruption budget."));
        assertTrue(
                refused.body().contains("The disruption budget web-pdb needs 2 healthy pods and has 2 currently"),
                refused.body());
        assertNotNull(
                api.client().pods().inNamespace("default").withName("web-1").get());
    }

    @Test
    void maxUnavailableCountsTheReplicasTheControllerWants() throws Exception {
        ReplicaSet rs = api.client()
                .apps()
                .replicaSets()
                .inNamespace("default")
                .resource(new ReplicaSetBuilder()
                        .withNewMetadata()
                        .withName("db")
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(4)
                        .withNewSelector()
                        .addToMatchLabels("app", "db")
                        .endSelector()
                        .withTemplate(TestObjects.template("db"))
                        .endSpec()
                        .build())
                .create();
        runningPods("db", 3, rs);
        budget("db-pdb", "db", null, new IntOrString("25%"));
        // 4 wanted, 1 may be unavailable: 3 must be healthy, 3 are
        PodDisruptionBudget b = statusUntil("db-pdb", x -> x.getStatus().getExpectedPods() != null);
        assertEquals(4, b.getStatus().getExpectedPods());
        assertEquals(3, b.getStatus().getDesiredHealthy());
        assertEquals(0, b.getStatus().getDisruptionsAllowed());
        assertEquals(429, evict("db-0").statusCode());
    }

    @Test
    void aPendingPodIsEvictedWhateverItsBudgetSays() throws Exception {
        api.client()
                .pods()
                .inNamespace("default")
                .resource(TestObjects.pod("default", "waiting", "q"))
                .create();
        budget("q-pdb", "q", new IntOrString(1), null);
        statusUntil("q-pdb", x -> x.getStatus().getDisruptionsAllowed() == 0);
        assertEquals(201, evict("waiting").statusCode());
        assertNull(
                api.client().pods().inNamespace("default").withName("waiting").get());
    }

    @Test
    void aPodUnderTwoBudgetsIsAnInternalError() throws Exception {
        runningPods("two", 2, null);
        budget("two-a", "two", new IntOrString(0), null);
        budget("two-b", "two", new IntOrString(0), null);
        HttpResponse<String> r = evict("two-0");
        assertEquals(500, r.statusCode(), r.body());
        assertTrue(r.body().contains("This pod has more than one PodDisruptionBudget"), r.body());
    }

    @Test
    void kubectlDrainEvictsWhatTheBudgetAllowsAndReportsTheRest() throws Exception {
        runningPods("app", 2, null);
        budget("app-pdb", "app", new IntOrString(1), null);
        statusUntil("app-pdb", x -> x.getStatus().getDisruptionsAllowed() == 1);
        Kubectl kubectl = new Kubectl(api.kubeconfig(dir));
        Kubectl.Run drain = kubectl.run("drain", "n1", "--force", "--timeout=3s");
        assertFalse(drain.exit() == 0, drain.out());
        assertTrue(
                drain.out().contains("Cannot evict pod as it would violate the pod's disruption budget."), drain.out());
        long left = api.client().pods().inNamespace("default").list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .count();
        assertEquals(1, left, "one pod evicted, one kept by the budget");
        assertTrue(api.client().nodes().withName("n1").get().getSpec().getUnschedulable());
    }
}
