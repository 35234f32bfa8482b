package io.hotsched.embedded.standins;

import static io.hotsched.embedded.ApiServer.until;
import static io.hotsched.embedded.TestObjects.deployment;
import static io.hotsched.embedded.TestObjects.node;
import static io.hotsched.embedded.TestObjects.template;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hotsched.embedded.ApiServer;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The workload stand-ins over HTTP: what kube-controller-manager would make of each kind. */
class WorkloadStandInsTest {

    @RegisterExtension
    static final ApiServer API = new ApiServer().withNodes("n1", "n2", "n3").withStandIns(EnumSet.allOf(StandIn.class));

    @Test
    void deploymentMakesReplicaSetAndPodsScalesAndCollectsThem() throws Exception {
        String ns = "deploy";
        try (TestScheduler scheduler = new TestScheduler(API.client(), ns, "n1")) {
            API.client()
                    .apps()
                    .deployments()
                    .inNamespace(ns)
                    .resource(deployment("web", 5))
                    .create();
            var web = API.client().apps().deployments().inNamespace(ns).withName("web");
            Deployment d = until(
                    web,
                    x -> x.getStatus() != null
                            && Integer.valueOf(5).equals(x.getStatus().getAvailableReplicas())
                            && Integer.valueOf(5).equals(x.getStatus().getUpdatedReplicas()));
            assertEquals(d.getMetadata().getGeneration(), d.getStatus().getObservedGeneration());
            assertEquals("1", d.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision"));
            assertTrue(
                    d.getStatus().getConditions().stream()
                            .anyMatch(c -> "Progressing".equals(c.getType())
                                    && "NewReplicaSetAvailable".equals(c.getReason())),
                    d.getStatus().getConditions().toString());

            List<ReplicaSet> sets =
                    API.client().apps().replicaSets().inNamespace(ns).list().getItems();
            assertEquals(1, sets.size());
            ReplicaSet rs = sets.get(0);
            String hash = rs.getMetadata().getLabels().get("pod-template-hash");
            assertEquals("web-" + hash, rs.getMetadata().getName());
            assertEquals(hash, rs.getSpec().getSelector().getMatchLabels().get("pod-template-hash"));
            assertEquals(d.getMetadata().getUid(), controller(rs).getUid());

            List<Pod> pods = API.podsUntil(ns, "web", l -> l.size() == 5);
            for (Pod p : pods) {
                assertEquals(hash, p.getMetadata().getLabels().get("pod-template-hash"));
                assertEquals("ReplicaSet", controller(p).getKind());
                assertEquals(rs.getMetadata().getUid(), controller(p).getUid());
                assertTrue(p.getMetadata().getName().matches("web-" + hash + "-[bcdfghjklmnpqrstvwxz2456789]{5}"));
            }

            web.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":2}}");
            API.podsUntil(ns, "web", l -> l.size() == 2);
            until(
                    web,
                    x -> x.getStatus() != null
                            && Integer.valueOf(2).equals(x.getStatus().getReplicas())
                            && Integer.valueOf(2).equals(x.getStatus().getReadyReplicas()));

            // a new template: a second ReplicaSet takes over, the first is scaled to zero
            web.patch(
                    PatchContext.of(PatchType.JSON_MERGE),
                    "{\"spec\":{\"template\":{\"metadata\":{\"labels\":{\"tier\":\"v2\"}}}}}");
            List<Pod> v2 = API.podsUntil(
                    ns,
                    "web",
                    l -> l.size() == 2
                            && l.stream()
                                    .allMatch(p -> "v2"
                                            .equals(p.getMetadata().getLabels().get("tier"))));
            assertTrue(v2.stream()
                    .noneMatch(p -> hash.equals(p.getMetadata().getLabels().get("pod-template-hash"))));
            Deployment rolled = until(
                    web,
                    x -> "2".equals(x.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision"))
                            && x.getStatus() != null
                            && Integer.valueOf(2).equals(x.getStatus().getUpdatedReplicas())
                            && Integer.valueOf(2).equals(x.getStatus().getReplicas()));
            assertEquals(
                    rolled.getMetadata().getGeneration(), rolled.getStatus().getObservedGeneration());
            assertEquals(
                    0,
                    API.client()
                            .apps()
                            .replicaSets()
                            .inNamespace(ns)
                            .withName(rs.getMetadata().getName())
                            .get()
                            .getSpec()
                            .getReplicas());

            // deleting the Deployment takes its ReplicaSets and their pods along
            web.delete();
            API.podsUntil(ns, "web", List::isEmpty);
            API.client()
                    .apps()
                    .replicaSets()
                    .inNamespace(ns)
                    .informOnCondition(List::isEmpty)
                    .get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void jobRunsItsCompletionsAndAFailingJobFails() throws Exception {
        String ns = "jobs";
        try (TestScheduler scheduler = new TestScheduler(API.client(), ns, "n2")) {
            PodTemplateSpec t = template("batch");
            t.getSpec().setRestartPolicy("Never");
            Job done = run(
                    ns,
                    new JobBuilder()
                            .withNewMetadata()
                            .withName("pi")
                            .endMetadata()
                            .withNewSpec()
                            .withCompletions(3)
                            .withParallelism(2)
                            .withTemplate(t)
                            .endSpec()
                            .build());
            assertEquals(3, done.getStatus().getSucceeded());
            assertEquals(0, done.getStatus().getActive());
            assertEquals(
                    List.of("SuccessCriteriaMet", "Complete"),
                    done.getStatus().getConditions().stream()
                            .map(c -> c.getType())
                            .toList());
            assertTrue(done.getStatus().getCompletionTime() != null);
            List<Pod> pods = API.client()
                    .pods()
                    .inNamespace(ns)
                    .withLabel("job-name", "pi")
                    .list()
                    .getItems();
            assertEquals(3, pods.size());
            for (Pod p : pods) {
                assertEquals("Succeeded", p.getStatus().getPhase());
                assertEquals(
                        done.getMetadata().getUid(),
                        p.getMetadata().getLabels().get("batch.kubernetes.io/controller-uid"));
                assertEquals(
                        0,
                        p.getStatus()
                                .getContainerStatuses()
                                .get(0)
                                .getState()
                                .getTerminated()
                                .getExitCode());
            }

            PodTemplateSpec failing = template("fail");
            failing.getSpec().setRestartPolicy("Never");
            failing.getMetadata().setAnnotations(Map.of("hotsched.io/exit-code", "3"));
            Job failed = run(
                    ns,
                    new JobBuilder()
                            .withNewMetadata()
                            .withName("bad")
                            .endMetadata()
                            .withNewSpec()
                            .withBackoffLimit(1)
                            .withTemplate(failing)
                            .endSpec()
                            .build());
            assertEquals(2, failed.getStatus().getFailed());
            assertTrue(failed.getStatus().getConditions().stream()
                    .anyMatch(c -> "Failed".equals(c.getType()) && "BackoffLimitExceeded".equals(c.getReason())));
        }
    }

    /** Creates the Job and waits until it is complete or failed. */
    private static Job run(String ns, Job job) {
        var jobs = API.client().batch().v1().jobs().inNamespace(ns);
        jobs.resource(job).create();
        return until(jobs.withName(job.getMetadata().getName()), WorkloadStandInsTest::finished);
    }

    private static boolean finished(Job j) {
        return j.getStatus() != null
                && j.getStatus().getConditions() != null
                && j.getStatus().getConditions().stream()
                        .anyMatch(c -> "Complete".equals(c.getType()) || "Failed".equals(c.getType()));
    }

    @Test
    void statefulSetMakesOrderedPodsAndTheirClaims() throws Exception {
        String ns = "sts";
        StatefulSet set = new StatefulSetBuilder()
                .withNewMetadata()
                .withName("db")
                .endMetadata()
                .withNewSpec()
                .withReplicas(3)
                .withServiceName("db")
                .withNewSelector()
                .addToMatchLabels("app", "db")
                .endSelector()
                .withTemplate(template("db"))
                .withVolumeClaimTemplates(new PersistentVolumeClaimBuilder()
                        .withNewMetadata()
                        .withName("data")
                        .endMetadata()
                        .withNewSpec()
                        .withAccessModes("ReadWriteOnce")
                        .withNewResources()
                        .addToRequests("storage", new Quantity("1Gi"))
                        .endResources()
                        .endSpec()
                        .build())
                .endSpec()
                .build();
        API.client().apps().statefulSets().inNamespace(ns).resource(set).create();
        // OrderedReady: while db-0 is not Ready (nothing binds it yet), db-1 is not made
        until(
                API.client().apps().statefulSets().inNamespace(ns).withName("db"),
                s -> s.getStatus() != null
                        && Integer.valueOf(1).equals(s.getStatus().getReplicas()));
        assertNull(API.client().pods().inNamespace(ns).withName("db-1").get());
        try (TestScheduler scheduler = new TestScheduler(API.client(), ns, "n3")) {
            List<Pod> pods =
                    API.podsUntil(ns, "db", l -> l.size() == 3 && l.stream().allMatch(PodStates::ready));
            assertEquals(
                    List.of("db-0", "db-1", "db-2"),
                    pods.stream().map(p -> p.getMetadata().getName()).sorted().toList());
            Pod p1 = API.client().pods().inNamespace(ns).withName("db-1").get();
            assertEquals("db-1", p1.getSpec().getHostname());
            assertEquals("db", p1.getSpec().getSubdomain());
            assertEquals("1", p1.getMetadata().getLabels().get("apps.kubernetes.io/pod-index"));
            assertEquals("db-1", p1.getMetadata().getLabels().get("statefulset.kubernetes.io/pod-name"));
            assertEquals(
                    "data-db-1",
                    p1.getSpec().getVolumes().stream()
                            .filter(v -> v.getName().equals("data"))
                            .findFirst()
                            .orElseThrow()
                            .getPersistentVolumeClaim()
                            .getClaimName());
            List<PersistentVolumeClaim> claims =
                    API.client().persistentVolumeClaims().inNamespace(ns).list().getItems();
            assertEquals(
                    List.of("data-db-0", "data-db-1", "data-db-2"),
                    claims.stream().map(c -> c.getMetadata().getName()).sorted().toList());
            assertEquals("db", claims.get(0).getMetadata().getLabels().get("app"));

            // scaling down removes the highest ordinal; the claims stay (Retain)
            API.client()
                    .apps()
                    .statefulSets()
                    .inNamespace(ns)
                    .withName("db")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":1}}");
            List<Pod> left = API.podsUntil(ns, "db", l -> l.size() == 1);
            assertEquals("db-0", left.get(0).getMetadata().getName());
            assertEquals(
                    3,
                    API.client()
                            .persistentVolumeClaims()
                            .inNamespace(ns)
                            .list()
                            .getItems()
                            .size());
        }
    }

    @Test
    void daemonSetPutsOnePodOnEveryNodeItTolerates() throws Exception {
        String ns = "ds";
        API.client()
                .nodes()
                .resource(new NodeBuilder(node("tainted", "tainted"))
                        .withNewSpec()
                        .addNewTaint()
                        .withKey("dedicated")
                        .withValue("infra")
                        .withEffect("NoSchedule")
                        .endTaint()
                        .endSpec()
                        .build())
                .create();
        try (TestScheduler scheduler = new TestScheduler(API.client(), ns, "none")) {
            API.client()
                    .apps()
                    .daemonSets()
                    .inNamespace(ns)
                    .resource(new DaemonSetBuilder()
                            .withNewMetadata()
                            .withName("agent")
                            .endMetadata()
                            .withNewSpec()
                            .withNewSelector()
                            .addToMatchLabels("app", "agent")
                            .endSelector()
                            .withTemplate(template("agent"))
                            .endSpec()
                            .build())
                    .create();
            DaemonSet ds = until(
                    API.client().apps().daemonSets().inNamespace(ns).withName("agent"),
                    x -> x.getStatus() != null
                            && Integer.valueOf(3).equals(x.getStatus().getNumberReady()));
            assertEquals(3, ds.getStatus().getDesiredNumberScheduled());
            List<Pod> pods = API.podsUntil(ns, "agent", l -> l.size() == 3);
            assertEquals(
                    List.of("n1", "n2", "n3"),
                    pods.stream().map(p -> p.getSpec().getNodeName()).sorted().toList());
            Pod p = pods.get(0);
            var terms = p.getSpec()
                    .getAffinity()
                    .getNodeAffinity()
                    .getRequiredDuringSchedulingIgnoredDuringExecution()
                    .getNodeSelectorTerms();
            assertEquals(1, terms.size());
            assertEquals("metadata.name", terms.get(0).getMatchFields().get(0).getKey());
            assertEquals(
                    List.of(p.getSpec().getNodeName()),
                    terms.get(0).getMatchFields().get(0).getValues());
            assertEquals(
                    List.of(
                            "node.kubernetes.io/disk-pressure:NoSchedule",
                            "node.kubernetes.io/memory-pressure:NoSchedule",
                            "node.kubernetes.io/not-ready:NoExecute",
                            "node.kubernetes.io/pid-pressure:NoSchedule",
                            "node.kubernetes.io/unreachable:NoExecute",
                            "node.kubernetes.io/unschedulable:NoSchedule"),
                    p.getSpec().getTolerations().stream()
                            .map(WorkloadStandInsTest::toleration)
                            .sorted()
                            .toList());

            // a toleration of the taint in the template: the tainted node gets its pod too
            API.client()
                    .apps()
                    .daemonSets()
                    .inNamespace(ns)
                    .withName("agent")
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            "{\"spec\":{\"template\":{\"spec\":{\"tolerations\":[{\"key\":\"dedicated\",\"operator\":\"Exists\"}]}}}}");
            List<Pod> four =
                    API.podsUntil(ns, "agent", l -> l.size() == 4 && l.stream().allMatch(PodStates::assigned));
            assertTrue(four.stream().anyMatch(x -> "tainted".equals(x.getSpec().getNodeName())));
        } finally {
            API.client().nodes().withName("tainted").delete();
        }
    }

    private static String toleration(Toleration t) {
        return t.getKey() + ":" + t.getEffect();
    }

    private static OwnerReference controller(io.fabric8.kubernetes.api.model.HasMetadata o) {
        return o.getMetadata().getOwnerReferences().stream()
                .filter(r -> Boolean.TRUE.equals(r.getController()))
                .findFirst()
                .orElseThrow();
    }
}
