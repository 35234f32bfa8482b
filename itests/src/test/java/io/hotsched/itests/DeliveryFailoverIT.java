package io.hotsched.itests;

import static io.hotsched.itests.StandaloneCluster.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.itest.plugins.ItestVersion;
import io.hotsched.itests.StandaloneCluster.Replica;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A failover just after a SchedulerPlugin was created (issue 21): two {@code bin/hotsched
 * --leader-elect} replicas against a standalone embedded API server, pods created continuously.
 * The new object's bundle (served over https by the test) is held back from both replicas; the
 * leader is killed before it has it. The standby may not lead before it has installed the bundle:
 * it takes the expired Lease and hands it back, and leads only once the download is let through
 * and the bundle serves. Judged from the API server's audit log: the standby's first binding comes
 * after its status write that reports the bundle installed; no pod is lost, none bound by a replica
 * without the Lease; the pods of the plugin's profile carry the delivered version.
 */
class DeliveryFailoverIT {

    private static final String JAR = "failover-1.0.0.jar";
    private static final int VERSIONED = 10;
    private static final String CONFIG = """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - schedulerName: default-scheduler
            - schedulerName: versioned
              plugins:
                preBind:
                  enabled: [{name: ItestVersion}]
            """;

    @TempDir
    Path work;

    private StandaloneCluster cluster;

    @AfterEach
    void stopAll() throws Exception {
        HttpsJars.release(JAR);
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theReplicaThatTakesTheLeaseAlreadyServesTheNewBundle() throws Exception {
        cluster = new StandaloneCluster(work, "load");
        cluster.nodes("n-", 20);
        byte[] jar = SigningKeys.get()
                .sign(
                        TestBundles.withVersion(
                                Files.readAllBytes(Path.of(System.getProperty("hotsched.itest.plugins.bundle"))),
                                "1.0.0"),
                        SigningKeys.TRUSTED);
        String url = HttpsJars.publish(JAR, jar);

        Replica a = start("a");
        Replica b = start("b");
        Map<String, Replica> byIdentity = new HashMap<>();
        byIdentity.put(a.identity(), a);
        byIdentity.put(b.identity(), b);
        StandaloneCluster.Load load = cluster.load("load", "p-", 300);
        await("a first leader", Duration.ofSeconds(60), () -> byIdentity.containsKey(cluster.holder()));
        await("first bindings", Duration.ofSeconds(60), () -> cluster.bound("load") >= 20);
        Replica leader = byIdentity.get(cluster.holder());
        Replica standby = leader == a ? b : a;

        // the SchedulerPlugin arrives; neither replica gets its bundle yet
        HttpsJars.hold(JAR);
        int heldBefore = HttpsJars.held();
        cluster.raw()
                .post(
                        "/apis/hotsched.io/v1alpha1/schedulerplugins",
                        "{\"apiVersion\":\"hotsched.io/v1alpha1\",\"kind\":\"SchedulerPlugin\",\"metadata\":{\"name\":"
                                + "\"failover\"},\"spec\":{\"source\":{\"url\":\"" + url + "\"},\"sha256\":\""
                                + sha256(jar) + "\"}}");
        await("both replicas downloading", Duration.ofSeconds(30), () -> HttpsJars.held() >= heldBefore + 2);
        for (int i = 0; i < VERSIONED; i++) {
            cluster.createPod("load", "v-" + i, "versioned");
        }

        long killed = System.nanoTime();
        leader.process.destroyForcibly();
        // the Lease expires; the standby takes it and gives it back, as it lacks the bundle
        await(
                standby + " handing the Lease back",
                Duration.ofSeconds(30),
                () -> standby.lines("before installing its SchedulerPlugin bundles; releasing it") > 0);
        long handedBack = ms(killed);
        HttpsJars.release(JAR);
        long released = System.nanoTime();
        await(
                standby + " leading",
                Duration.ofSeconds(30),
                () -> byIdentity.get(cluster.holder()) == standby && versionedBound() == VERSIONED);
        long leading = ms(released);

        int total = load.stop() + VERSIONED;
        await("every pod bound", Duration.ofSeconds(60), () -> cluster.bound("load") >= total);

        List<String> audit = cluster.audit();
        LeaseAudit.Result result = LeaseAudit.judge(audit);
        int installedAt = first(audit, standby, "schedulerplugins", "status");
        int firstBinding = first(audit, standby, "pods", "binding");
        Map<String, JsonNode> pods = cluster.pods("load");
        long withVersion = pods.values().stream()
                .filter(p -> p.path("spec").path("schedulerName").asText().equals("versioned"))
                .filter(p -> p.path("metadata")
                        .path("annotations")
                        .path(ItestVersion.ANNOTATION)
                        .asText()
                        .equals("1.0.0"))
                .count();
        int lost = total - (int) cluster.bound("load");
        System.out.printf(
                "scenario delivery failover: %s killed while the new bundle was held back; %s handed the Lease back"
                        + " %d ms after the kill; led %d ms after the bundle was let through; audit line of its"
                        + " first status write %d, of its first binding %d; %d pods, %d lost, %d bindings %s,"
                        + " %d by a replica without the Lease; %d of %d versioned pods bound with 1.0.0%n",
                leader,
                standby,
                handedBack,
                leading,
                installedAt,
                firstBinding,
                total,
                lost,
                result.bindings(),
                result.byUser(),
                result.stale().size(),
                withVersion,
                VERSIONED);
        assertTrue(installedAt >= 0, "no status write by " + standby);
        assertTrue(
                firstBinding > installedAt,
                standby + " bound a pod (audit line " + firstBinding + ") before its status said the bundle was"
                        + " installed (line " + installedAt + ")");
        assertEquals(0, lost, "lost pods");
        assertEquals(List.of(), result.stale(), "bindings by a replica that did not hold the Lease");
        assertEquals(total, result.bindings(), "one binding per pod");
        assertEquals(VERSIONED, withVersion, "versioned pods bound by the delivered plugin");
    }

    private Replica start(String name) throws Exception {
        return cluster.replica(
                name, Map.of("io.hotsched.delivery.cfg", PluginDeliveryIT.deliveryCfg(name), "scheduler.yaml", CONFIG));
    }

    private long versionedBound() throws Exception {
        return cluster.pods("load").values().stream()
                .filter(p -> p.path("spec").path("schedulerName").asText().equals("versioned"))
                .filter(p -> !p.path("spec").path("nodeName").asText("").isEmpty())
                .count();
    }

    /** The index of the first successful write by {@code replica} to {@code resource}/{@code subresource}, or -1. */
    private static int first(List<String> audit, Replica replica, String resource, String subresource) {
        for (int i = 0; i < audit.size(); i++) {
            JsonNode e = RawApi.JSON.readTree(audit.get(i));
            int code = e.path("responseStatus").path("code").asInt();
            JsonNode ref = e.path("objectRef");
            if ((code == 200 || code == 201)
                    && e.path("user").path("username").asText().equals(replica.user())
                    && ref.path("resource").asText().equals(resource)
                    && ref.path("subresource").asText().equals(subresource)) {
                return i;
            }
        }
        return -1;
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    private static long ms(long since) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }
}
