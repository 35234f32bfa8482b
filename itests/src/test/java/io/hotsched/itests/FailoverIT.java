package io.hotsched.itests;

import static io.hotsched.itests.StandaloneCluster.await;
import static io.hotsched.itests.StandaloneCluster.awaitLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.itests.StandaloneCluster.Replica;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failover of {@code bin/hotsched --leader-elect} replicas against one standalone embedded API
 * server ({@code bin/hotsched apiserver}), over HTTP, while pods are created continuously: (a) the
 * leader is killed (SIGKILL), (b) the leader is paused (SIGSTOP) until the standby took the Lease
 * over and then resumed (SIGCONT), (c) both replicas are replaced one after the other, as a rolling
 * update does. Judged from the API server's side: its audit log says who bound each pod and who
 * held the Lease at that moment; the pods and nodes say whether one was lost or a node holds more
 * than it has.
 */
class FailoverIT {

    private static final int NODES = 60;
    /** 4 cpus a node, 250m a pod: the nodes hold exactly this many pods. */
    private static final int CAPACITY = NODES * 16;

    @TempDir
    Path work;

    private StandaloneCluster cluster;

    @AfterEach
    void stopAll() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void noPodLostNoStaleBindingNoOvercommitAcrossFailovers() throws Exception {
        long started = System.nanoTime();
        cluster = new StandaloneCluster(work, "load");
        cluster.nodes("n-", NODES);

        Replica a = start("a");
        Replica b = start("b");
        Map<String, Replica> byIdentity = new HashMap<>();
        byIdentity.put(a.identity(), a);
        byIdentity.put(b.identity(), b);
        StandaloneCluster.Load load = cluster.load("load", "p-", CAPACITY);
        await("a first leader", Duration.ofSeconds(60), () -> byIdentity.containsKey(cluster.holder()));
        await("first bindings", Duration.ofSeconds(60), () -> bound() >= 20);
        List<String> report = new ArrayList<>();

        // (a) SIGKILL
        Replica leader = byIdentity.get(cluster.holder());
        long t0 = System.nanoTime();
        leader.process.destroyForcibly();
        await("a takeover after SIGKILL", Duration.ofSeconds(30), () -> isOther(byIdentity, leader));
        report.add(String.format(
                "(a) SIGKILL of %s: %s took the Lease over after %d ms",
                leader, byIdentity.get(cluster.holder()), ms(t0)));

        // (b) SIGSTOP past the Lease, then SIGCONT
        Replica c = start("c");
        byIdentity.put(c.identity(), c);
        Replica paused = byIdentity.get(cluster.holder());
        long bound0 = bound();
        await("bindings by " + paused, Duration.ofSeconds(30), () -> bound() > bound0);
        t0 = System.nanoTime();
        paused.signal("STOP");
        await("a takeover after SIGSTOP", Duration.ofSeconds(30), () -> isOther(byIdentity, paused));
        long takeover = ms(t0);
        Replica taker = byIdentity.get(cluster.holder());
        long boundNow = bound();
        await("bindings by " + taker, Duration.ofSeconds(30), () -> bound() > boundNow);
        paused.signal("CONT");
        awaitLine(paused.log, "scheduling stopped");
        report.add(String.format(
                "(b) SIGSTOP of %s: %s took the Lease over after %d ms; %s resumed after %d ms and stopped scheduling",
                paused, taker, takeover, paused, ms(t0)));

        // (c) rolling replacement: the standby first, then the leader
        Replica d = start("d");
        byIdentity.put(d.identity(), d);
        paused.process.destroy();
        assertTrue(paused.process.waitFor(30, TimeUnit.SECONDS));
        Replica e = start("e");
        byIdentity.put(e.identity(), e);
        t0 = System.nanoTime();
        taker.process.destroy();
        await(
                "a takeover after SIGTERM",
                Duration.ofSeconds(30),
                () -> isOther(byIdentity, taker) && byIdentity.get(cluster.holder()) != paused);
        report.add(String.format(
                "(c) rolling replacement: %s and %s replaced by %s and %s; %s took the Lease over %d ms after the leader's SIGTERM",
                paused, taker, d, e, byIdentity.get(cluster.holder()), ms(t0)));
        assertTrue(taker.process.waitFor(30, TimeUnit.SECONDS));

        int total = load.stop();
        await("every pod bound", Duration.ofSeconds(60), () -> bound() >= total);

        LeaseAudit.Result result = LeaseAudit.judge(cluster.audit());
        Map<String, Integer> perNode = cluster.podsPerNode("load");
        int overcommitted = (int) perNode.values().stream().filter(n -> n > 16).count();
        int lost = total - (int) bound();
        report.add(String.format(
                "%d pods created, %d bound, %d lost; %d bindings: %s; %d by a replica that did not hold the Lease;"
                        + " %d nodes over-committed; %d s",
                total,
                bound(),
                lost,
                result.bindings(),
                result.byUser(),
                result.stale().size(),
                overcommitted,
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)));
        report.forEach(l -> System.out.println("scenario failover " + l));
        assertEquals(0, lost, "lost pods");
        assertEquals(List.of(), result.stale(), "bindings by a replica that did not hold the Lease");
        assertEquals(0, overcommitted, "over-committed nodes: " + perNode);
        assertEquals(total, result.bindings(), "one binding per pod");
    }

    private Replica start(String name) throws Exception {
        return cluster.replica(name, Map.of());
    }

    private boolean isOther(Map<String, Replica> byIdentity, Replica than) throws Exception {
        Replica now = byIdentity.get(cluster.holder());
        return now != null && now != than;
    }

    private long bound() throws Exception {
        return cluster.bound("load");
    }

    private static long ms(long since) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }
}
