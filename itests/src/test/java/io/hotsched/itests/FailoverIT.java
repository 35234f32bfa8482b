package io.hotsched.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

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

    private static final String LEASE = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/hotsched";

    @TempDir
    Path work;

    private Path dist;
    private ApiServerProcess api;
    private RawApi raw;
    private String url;
    private final List<Replica> replicas = new ArrayList<>();
    private final AtomicBoolean creating = new AtomicBoolean(true);
    private final AtomicInteger created = new AtomicInteger();
    private Thread load;

    /** One scheduler process, with a home and a ServiceAccount of its own. */
    private final class Replica {
        final String name;
        final Path log;
        final Process process;

        Replica(String name) throws Exception {
            this.name = name;
            Path home = PlatformOptions.copyTree(dist, work.resolve(name));
            edit(
                    home.resolve("etc/io.hotsched.kube.cfg"),
                    Map.of(
                            "leaseDurationSeconds",
                            "6",
                            "renewDeadlineSeconds",
                            "4",
                            "retryPeriodSeconds",
                            "1",
                            "qps",
                            "0"));
            edit(home.resolve("etc/io.hotsched.scheduler.cfg"), Map.of("metricsAddress", ""));
            Path kubeconfig = home.resolve("kubeconfig-" + name);
            Files.writeString(kubeconfig, kubeconfig(token("hotsched-" + name)));
            log = work.resolve(name + ".log");
            process = new ProcessBuilder(
                            home.resolve("bin/hotsched").toString(),
                            "--no-shell",
                            "--leader-elect",
                            "--kubeconfig",
                            kubeconfig.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
        }

        /** The Lease identity it competes with, once it does. */
        String identity() throws Exception {
            String line = awaitLine(log, "Competing for lease kube-system/hotsched as ");
            return line.substring(line.indexOf(" as ") + 4).trim();
        }

        void signal(String name) throws Exception {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
            assertEquals(0, kill.waitFor(), "kill -" + name);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    @AfterEach
    void stopAll() throws Exception {
        creating.set(false);
        if (load != null) {
            load.join(10_000);
        }
        for (Replica r : replicas) {
            if (r.process.isAlive()) {
                r.signal("CONT");
                r.process.destroyForcibly();
            }
        }
        if (api != null) {
            api.close();
        }
    }

    @Test
    void noPodLostNoStaleBindingNoOvercommitAcrossFailovers() throws Exception {
        long started = System.nanoTime();
        dist = Path.of(System.getProperty("hotsched.dist"));
        Path audit = work.resolve("audit.log");
        api = ApiServerProcess.start(work, "--audit-log", audit.toString());
        url = api.url();
        raw = new RawApi(url);
        for (String ns : List.of("kube-system", "load")) {
            raw.post(
                    "/api/v1/namespaces",
                    "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + ns + "\"}}");
        }
        for (int i = 0; i < NODES; i++) {
            raw.post("/api/v1/nodes", node("n-" + i));
        }

        Replica a = start("a");
        Replica b = start("b");
        Map<String, Replica> byIdentity = new HashMap<>();
        byIdentity.put(a.identity(), a);
        byIdentity.put(b.identity(), b);
        load = new Thread(this::createPods, "failover-load");
        load.start();
        await("a first leader", Duration.ofSeconds(60), () -> byIdentity.containsKey(holder()));
        await("first bindings", Duration.ofSeconds(60), () -> bound() >= 20);
        List<String> report = new ArrayList<>();

        // (a) SIGKILL
        Replica leader = byIdentity.get(holder());
        long t0 = System.nanoTime();
        leader.process.destroyForcibly();
        await("a takeover after SIGKILL", Duration.ofSeconds(30), () -> isOther(byIdentity, leader));
        report.add(String.format(
                "(a) SIGKILL of %s: %s took the Lease over after %d ms", leader, byIdentity.get(holder()), ms(t0)));

        // (b) SIGSTOP past the Lease, then SIGCONT
        Replica c = start("c");
        byIdentity.put(c.identity(), c);
        Replica paused = byIdentity.get(holder());
        long bound0 = bound();
        await("bindings by " + paused, Duration.ofSeconds(30), () -> bound() > bound0);
        t0 = System.nanoTime();
        paused.signal("STOP");
        await("a takeover after SIGSTOP", Duration.ofSeconds(30), () -> isOther(byIdentity, paused));
        long takeover = ms(t0);
        Replica taker = byIdentity.get(holder());
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
                () -> isOther(byIdentity, taker) && byIdentity.get(holder()) != paused);
        report.add(String.format(
                "(c) rolling replacement: %s and %s replaced by %s and %s; %s took the Lease over %d ms after the leader's SIGTERM",
                paused, taker, d, e, byIdentity.get(holder()), ms(t0)));
        assertTrue(taker.process.waitFor(30, TimeUnit.SECONDS));

        creating.set(false);
        load.join(10_000);
        int total = created.get();
        await("every pod bound", Duration.ofSeconds(60), () -> bound() >= total);

        Audit.Result result = Audit.judge(Files.readAllLines(audit));
        Map<String, Integer> perNode = podsPerNode();
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
        Replica r = new Replica(name);
        replicas.add(r);
        return r;
    }

    private boolean isOther(Map<String, Replica> byIdentity, Replica than) throws Exception {
        Replica now = byIdentity.get(holder());
        return now != null && now != than;
    }

    private String holder() throws Exception {
        JsonNode lease = raw.get(LEASE);
        return lease == null ? null : lease.path("spec").path("holderIdentity").asText(null);
    }

    private long bound() throws Exception {
        long n = 0;
        for (JsonNode p : raw.get("/api/v1/namespaces/load/pods").path("items")) {
            if (!p.path("spec").path("nodeName").asText("").isEmpty()) {
                n++;
            }
        }
        return n;
    }

    private Map<String, Integer> podsPerNode() throws Exception {
        Map<String, Integer> perNode = new HashMap<>();
        for (JsonNode p : raw.get("/api/v1/namespaces/load/pods").path("items")) {
            perNode.merge(p.path("spec").path("nodeName").asText(""), 1, Integer::sum);
        }
        return perNode;
    }

    /** 10 pods a second until the test ends or the nodes are full. */
    private void createPods() {
        Pacing pace = Pacing.fixedRate(Duration.ofMillis(100));
        try {
            while (creating.get() && created.get() < CAPACITY) {
                pace.awaitNextStep();
                int i = created.get();
                raw.post("/api/v1/namespaces/load/pods", pod("p-" + i));
                created.incrementAndGet();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private String token(String serviceAccount) throws Exception {
        raw.post(
                "/api/v1/namespaces/kube-system/serviceaccounts",
                "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\"" + serviceAccount
                        + "\"}}");
        return raw.post(
                        "/api/v1/namespaces/kube-system/serviceaccounts/" + serviceAccount + "/token",
                        "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\",\"spec\":{}}")
                .path("status")
                .path("token")
                .asText();
    }

    private String kubeconfig(String token) {
        return String.join(
                "\n",
                "apiVersion: v1",
                "kind: Config",
                "clusters:",
                "- name: embedded",
                "  cluster: {server: \"" + url + "\"}",
                "users:",
                "- name: replica",
                "  user: {token: \"" + token + "\"}",
                "contexts:",
                "- name: embedded",
                "  context: {cluster: embedded, user: replica}",
                "current-context: embedded",
                "");
    }

    private static String node(String name) {
        String r = "{\"cpu\":\"4\",\"memory\":\"16Gi\",\"pods\":\"110\"}";
        return "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name
                + "\",\"labels\":{\"kubernetes.io/hostname\":\"" + name + "\"}},\"status\":{\"capacity\":" + r
                + ",\"allocatable\":" + r + ",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}";
    }

    private static String pod(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{"
                + "\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":"
                + "{\"requests\":{\"cpu\":\"250m\",\"memory\":\"64Mi\"}}}]}}";
    }

    private static long ms(long since) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }

    @FunctionalInterface
    private interface Check {
        boolean holds() throws Exception;
    }

    /** Polls {@code check} every 50 ms until it holds; fails after {@code limit}. */
    private static void await(String what, Duration limit, Check check) throws Exception {
        long until = System.nanoTime() + limit.toNanos();
        while (!check.holds()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("waited " + limit.toSeconds() + " s for " + what);
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    /** The first line of {@code log} that contains {@code text}, once it is written (at most 90 s). */
    private static String awaitLine(Path log, String text) throws Exception {
        String[] found = new String[1];
        await("\"" + text + "\" in " + log.getFileName(), Duration.ofSeconds(90), () -> {
            if (!Files.exists(log)) {
                return false;
            }
            try (Stream<String> lines = Files.lines(log, java.nio.charset.StandardCharsets.ISO_8859_1)) {
                found[0] = lines.filter(l -> l.contains(text)).findFirst().orElse(null);
            }
            return found[0] != null;
        });
        return found[0];
    }

    private static void edit(Path cfg, Map<String, String> values) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(cfg)) {
            String key =
                    line.contains("=") ? line.substring(0, line.indexOf('=')).trim() : "";
            out.add(values.containsKey(key) ? key + " = " + values.get(key) : line);
        }
        Files.write(cfg, out);
    }

    /** The audit log's verdict: each binding set against the Lease as the server held it then. */
    static final class Audit {

        record Result(int bindings, Map<String, Integer> byUser, List<String> stale) {}

        private record LeaseState(String writer, String holder, Instant renewed, long durationSeconds) {}

        static Result judge(List<String> lines) {
            LeaseState lease = null;
            int bindings = 0;
            Map<String, Integer> byUser = new java.util.TreeMap<>();
            List<String> stale = new ArrayList<>();
            // lines are in the order the server applied the writes (auditID)
            for (String line : lines) {
                JsonNode e = RawApi.JSON.readTree(line);
                int code = e.path("responseStatus").path("code").asInt();
                if (code != 200 && code != 201) {
                    continue;
                }
                String user = e.path("user").path("username").asText();
                JsonNode ref = e.path("objectRef");
                if (ref.path("resource").asText().equals("leases")) {
                    JsonNode spec = e.path("requestObject").path("spec");
                    String renew = spec.path("renewTime").asText("");
                    lease = new LeaseState(
                            user,
                            spec.path("holderIdentity").asText(""),
                            renew.isEmpty()
                                    ? Instant.EPOCH
                                    : java.time.OffsetDateTime.parse(renew).toInstant(),
                            spec.path("leaseDurationSeconds").asLong());
                } else if (ref.path("subresource").asText().equals("binding")) {
                    bindings++;
                    byUser.merge(user.substring(user.lastIndexOf(':') + 1), 1, Integer::sum);
                    Instant at =
                            Instant.parse(e.path("requestReceivedTimestamp").asText());
                    boolean held = lease != null
                            && !lease.holder().isEmpty()
                            && lease.writer().equals(user)
                            && at.isBefore(lease.renewed().plusSeconds(lease.durationSeconds()));
                    if (!held) {
                        stale.add(ref.path("name").asText() + " by " + user + " at " + at + " (Lease: " + lease + ")");
                    }
                }
            }
            assertNotNull(lease, "no Lease write in the audit log");
            return new Result(bindings, byUser, stale);
        }
    }
}
