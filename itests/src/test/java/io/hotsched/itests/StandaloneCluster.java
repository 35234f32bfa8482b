package io.hotsched.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * The built distribution as a user runs it in a cluster: one standalone embedded API server
 * ({@code bin/hotsched apiserver}, with an audit log) and {@code bin/hotsched --leader-elect}
 * replicas against it, each with a home and a ServiceAccount of its own. Spoken to over HTTP only.
 */
final class StandaloneCluster implements AutoCloseable {

    static final String LEASE = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/hotsched";

    private final Path work;
    private final Path dist;
    private final ApiServerProcess api;
    private final Path audit;
    private final String url;
    private final RawApi raw;
    private final List<Replica> replicas = new ArrayList<>();
    private final List<Load> loads = new ArrayList<>();

    /** Starts the API server with no seed, namespace kube-system and {@code namespaces} in it. */
    StandaloneCluster(Path work, String... namespaces) throws Exception {
        this.work = work;
        this.dist = Path.of(System.getProperty("hotsched.dist"));
        audit = work.resolve("audit.log");
        api = ApiServerProcess.start(work, "--audit-log", audit.toString());
        url = api.url();
        raw = new RawApi(url);
        List<String> all = new ArrayList<>(List.of("kube-system"));
        all.addAll(List.of(namespaces));
        for (String ns : all) {
            raw.post(
                    "/api/v1/namespaces",
                    "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + ns + "\"}}");
        }
    }

    RawApi raw() {
        return raw;
    }

    String url() {
        return url;
    }

    /** The audit log's lines, in the order the server applied the writes. */
    List<String> audit() throws IOException {
        return Files.readAllLines(audit);
    }

    /** Nodes {@code prefix-0 …} of 4 cpus and 16 GiB each. */
    void nodes(String prefix, int count) throws Exception {
        String r = "{\"cpu\":\"4\",\"memory\":\"16Gi\",\"pods\":\"110\"}";
        for (int i = 0; i < count; i++) {
            String name = prefix + i;
            raw.post(
                    "/api/v1/nodes",
                    "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name
                            + "\",\"labels\":{\"kubernetes.io/hostname\":\"" + name + "\"}},\"status\":{\"capacity\":"
                            + r + ",\"allocatable\":" + r
                            + ",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}");
        }
    }

    /** A pod of 250m cpu and 64 MiB for {@code schedulerName}. */
    void createPod(String namespace, String name, String schedulerName) throws Exception {
        raw.post(
                "/api/v1/namespaces/" + namespace + "/pods",
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{"
                        + "\"schedulerName\":\"" + schedulerName + "\","
                        + "\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":"
                        + "{\"requests\":{\"cpu\":\"250m\",\"memory\":\"64Mi\"}}}]}}");
    }

    /** Creates pods {@code prefix0 …} for the default profile at 10 a second on a thread of its own, until stopped or {@code max}. */
    Load load(String namespace, String prefix, int max) {
        Load l = new Load(namespace, prefix, max);
        loads.add(l);
        return l;
    }

    /** A stream of pods through the API. */
    final class Load {
        private final AtomicBoolean creating = new AtomicBoolean(true);
        private final AtomicInteger created = new AtomicInteger();
        private final Thread thread;

        private Load(String namespace, String prefix, int max) {
            thread = new Thread(
                    () -> {
                        Pacing pace = Pacing.fixedRate(Duration.ofMillis(100));
                        try {
                            while (creating.get() && created.get() < max) {
                                pace.awaitNextStep();
                                createPod(namespace, prefix + created.get(), "default-scheduler");
                                created.incrementAndGet();
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    },
                    "standalone-load");
            thread.start();
        }

        /** Stops creating and returns how many pods it created. */
        int stop() throws InterruptedException {
            creating.set(false);
            thread.join(10_000);
            return created.get();
        }
    }

    /** The Lease's holder as the server has it, or null. */
    String holder() throws Exception {
        JsonNode lease = raw.get(LEASE);
        return lease == null ? null : lease.path("spec").path("holderIdentity").asText(null);
    }

    /** The pods of {@code namespace} by name. */
    Map<String, JsonNode> pods(String namespace) throws Exception {
        Map<String, JsonNode> pods = new HashMap<>();
        for (JsonNode p : raw.get("/api/v1/namespaces/" + namespace + "/pods").path("items")) {
            pods.put(p.path("metadata").path("name").asText(), p);
        }
        return pods;
    }

    long bound(String namespace) throws Exception {
        return pods(namespace).values().stream()
                .filter(p -> !p.path("spec").path("nodeName").asText("").isEmpty())
                .count();
    }

    Map<String, Integer> podsPerNode(String namespace) throws Exception {
        Map<String, Integer> perNode = new HashMap<>();
        for (JsonNode p : pods(namespace).values()) {
            perNode.merge(p.path("spec").path("nodeName").asText(""), 1, Integer::sum);
        }
        return perNode;
    }

    /** Starts replica {@code name} with a short Lease (6 s, renew 4 s, retry 1 s) and these etc/ files over the shipped ones. */
    Replica replica(String name, Map<String, String> etcFiles) throws Exception {
        Replica r = new Replica(name, etcFiles);
        replicas.add(r);
        return r;
    }

    /** One scheduler process, with a home and a ServiceAccount of its own. */
    final class Replica {
        final String name;
        final Path log;
        final Process process;

        private Replica(String name, Map<String, String> etcFiles) throws Exception {
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
            for (Map.Entry<String, String> e : etcFiles.entrySet()) {
                Files.writeString(home.resolve("etc").resolve(e.getKey()), e.getValue());
            }
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

        /** The user name its API requests carry (its ServiceAccount). */
        String user() {
            return "system:serviceaccount:kube-system:hotsched-" + name;
        }

        void signal(String signal) throws Exception {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
            assertEquals(0, kill.waitFor(), "kill -" + signal);
        }

        /** How many lines of its log contain {@code text} so far. */
        long lines(String text) throws IOException {
            try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
                return lines.filter(l -> l.contains(text)).count();
            }
        }

        @Override
        public String toString() {
            return name;
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

    /** Ends the loads, every replica (resumed first if stopped) and the API server. */
    @Override
    public void close() throws Exception {
        for (Load l : loads) {
            l.stop();
        }
        for (Replica r : replicas) {
            if (r.process.isAlive()) {
                r.signal("CONT");
                r.process.destroyForcibly();
            }
        }
        api.close();
    }

    @FunctionalInterface
    interface Check {
        boolean holds() throws Exception;
    }

    /** Polls {@code check} every 50 ms until it holds; fails after {@code limit}. */
    static void await(String what, Duration limit, Check check) throws Exception {
        long until = System.nanoTime() + limit.toNanos();
        while (!check.holds()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("waited " + limit.toSeconds() + " s for " + what);
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    /** The first line of {@code log} that contains {@code text}, once it is written (at most 90 s). */
    static String awaitLine(Path log, String text) throws Exception {
        String[] found = new String[1];
        await("\"" + text + "\" in " + log.getFileName(), Duration.ofSeconds(90), () -> {
            if (!Files.exists(log)) {
                return false;
            }
            try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
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
}
