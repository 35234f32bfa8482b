package io.hotsched.bench;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.hotsched.embedded.EmbeddedApiServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The embedded API server at benchmark scale: creates per second while the store grows, binds per
 * second with the bind round trip and the delay until an informer sees the binding, and the heap.
 *
 * <pre>
 * java -Djava.util.concurrent.ForkJoinPool.common.parallelism=2 -cp bench/target/benchmarks.jar \
 *     io.hotsched.bench.ApiServerBench [--pods 20000] [--nodes 5000] [--binds 5000] [--binders 2] [--stock] [--no-informer]
 * </pre>
 */
public final class ApiServerBench {

    private ApiServerBench() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--stock") || args[i].equals("--no-informer")) {
                opts.put(args[i].substring(2), "true");
            } else if (args[i].startsWith("--") && i + 1 < args.length) {
                opts.put(args[i].substring(2), args[++i]);
            }
        }
        int pods = Integer.parseInt(opts.getOrDefault("pods", "20000"));
        int nodes = Integer.parseInt(opts.getOrDefault("nodes", "5000"));
        int binds = Integer.parseInt(opts.getOrDefault("binds", "5000"));
        int binders = Integer.parseInt(opts.getOrDefault("binders", "2"));
        boolean stock = opts.containsKey("stock");
        boolean withInformer = !opts.containsKey("no-informer");
        System.out.printf(
                "store: %s; %d nodes, %d pods, %d binds with %d binders; %d cores, JVM %s%n",
                stock ? "stock" : "indexed",
                nodes,
                pods,
                binds,
                binders,
                Runtime.getRuntime().availableProcessors(),
                Runtime.version());
        try (EmbeddedApiServer server = new EmbeddedApiServer(!stock).start(0)) {
            KubernetesClient client = server.client();
            long t0 = System.nanoTime();
            parallel(
                    4,
                    nodes,
                    i -> client.nodes()
                            .resource(new NodeBuilder()
                                    .withNewMetadata()
                                    .withName("node-" + i)
                                    .addToLabels("kubernetes.io/hostname", "node-" + i)
                                    .addToLabels("topology.kubernetes.io/zone", "zone-" + (i % 3))
                                    .endMetadata()
                                    .withNewStatus()
                                    .withAllocatable(Map.of(
                                            "cpu",
                                            new Quantity("4"),
                                            "memory",
                                            new Quantity("32Gi"),
                                            "pods",
                                            new Quantity("110")))
                                    .endStatus()
                                    .build())
                            .create());
            System.out.printf("nodes: %d created, %.0f /s%n", nodes, nodes / seconds(t0));
            long baseline = usedAfterGc();

            // an informer on the pods, as the scheduler has: when does it see each binding?
            Map<String, Long> answered = new ConcurrentHashMap<>();
            Map<String, Long> seen = new ConcurrentHashMap<>();
            SharedIndexInformer<Pod> informer = !withInformer
                    ? null
                    : client.pods().inNamespace("bench").inform(new ResourceEventHandler<>() {
                        @Override
                        public void onAdd(Pod p) {}

                        @Override
                        public void onUpdate(Pod o, Pod n) {
                            if (n.getSpec().getNodeName() != null
                                    && (o.getSpec().getNodeName() == null)) {
                                seen.putIfAbsent(n.getMetadata().getName(), System.nanoTime());
                            }
                        }

                        @Override
                        public void onDelete(Pod p, boolean unknown) {}
                    });
            int bracket = Math.max(1, pods / 4);
            for (int from = 0; from < pods; from += bracket) {
                int to = Math.min(pods, from + bracket);
                long b0 = System.nanoTime();
                int base = from;
                parallel(
                        4,
                        to - from,
                        i -> client.pods().resource(pod("pod-" + (base + i))).create());
                System.out.printf("pods %6d-%6d: %.0f creates/s%n", from, to, (to - from) / seconds(b0));
            }
            HttpClient http = HttpClient.newHttpClient();
            long[] latencies = new long[Math.min(binds, pods)];
            AtomicInteger next = new AtomicInteger();
            long b0 = System.nanoTime();
            parallel(binders, latencies.length, i -> {
                String name = "pod-" + i;
                String body = "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"" + name
                        + "\"},\"target\":{\"kind\":\"Node\",\"name\":\"node-" + (i % nodes) + "\"}}";
                long s = System.nanoTime();
                try {
                    HttpResponse<String> r = http.send(
                            HttpRequest.newBuilder(URI.create(
                                            server.url() + "/api/v1/namespaces/bench/pods/" + name + "/binding"))
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString(body))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 201) {
                        throw new IllegalStateException("bind " + name + ": " + r.statusCode() + " " + r.body());
                    }
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                long e = System.nanoTime();
                answered.put(name, e);
                latencies[next.getAndIncrement()] = e - s;
            });
            double bindSeconds = seconds(b0);
            long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (withInformer && seen.size() < answered.size() && System.nanoTime() < waitUntil) {
                Thread.sleep(20);
            }
            Arrays.sort(latencies);
            // from the bind's answer to the informer's update (0 when the update came first)
            long[] delays = answered.entrySet().stream()
                    .filter(en -> seen.containsKey(en.getKey()))
                    .mapToLong(en -> Math.max(0, seen.get(en.getKey()) - en.getValue()))
                    .sorted()
                    .toArray();
            System.out.printf(
                    "binds: %d at %d pods in store, %.0f /s; round trip p50 %.1f ms, p99 %.1f ms%s%n",
                    latencies.length,
                    pods,
                    latencies.length / bindSeconds,
                    ms(latencies, 0.50),
                    ms(latencies, 0.99),
                    !withInformer
                            ? ""
                            : String.format(
                                    "; informer saw it after p50 %.1f ms, p99 %.1f ms (not seen: %d)",
                                    ms(delays, 0.50), ms(delays, 0.99), answered.size() - delays.length));
            long l0 = System.nanoTime();
            int listed = client.pods().inNamespace("bench").list().getItems().size();
            System.out.printf("list: %d pods in %.2f s%n", listed, seconds(l0));
            long used = usedAfterGc();
            System.out.printf(
                    "heap used after GC: %d MB; %d MB more than with the nodes only%s%n",
                    used,
                    used - baseline,
                    withInformer
                            ? " (includes the informer's cache of the pods)"
                            : " (the pods in the store, and the server's own buffers)");
            if (informer != null) {
                informer.close();
            }
            int deletes = Math.min(5000, pods);
            long d0 = System.nanoTime();
            parallel(
                    4,
                    deletes,
                    i -> client.pods()
                            .inNamespace("bench")
                            .withName("pod-" + (pods - 1 - i))
                            .delete());
            System.out.printf(
                    "deletes: %d at %d pods in store, %.0f /s; named look-ups from the index: %d%n",
                    deletes, pods, deletes / seconds(d0), server.indexHits());
        }
    }

    private static Pod pod(String name) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("bench")
                .addToLabels("app", "bench")
                .endMetadata()
                .withNewSpec()
                .withSchedulerName("default-scheduler")
                .addNewContainer()
                .withName("pause")
                .withImage("registry.k8s.io/pause:3.9")
                .withNewResources()
                .addToRequests("cpu", new Quantity("100m"))
                .addToRequests("memory", new Quantity("500Mi"))
                .addToLimits("cpu", new Quantity("100m"))
                .addToLimits("memory", new Quantity("500Mi"))
                .endResources()
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase("Pending")
                .endStatus()
                .build();
    }

    private interface Step {
        void run(int i) throws Exception;
    }

    /** Runs {@code step(0..n-1)} on {@code threads} threads and waits for all. */
    private static void parallel(int threads, int n, Step step) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicInteger next = new AtomicInteger();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < threads; t++) {
            pool.execute(() -> {
                for (int i; (i = next.getAndIncrement()) < n && failures.isEmpty(); ) {
                    try {
                        step.run(i);
                    } catch (Exception | Error e) {
                        failures.add(e);
                    }
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.HOURS);
        if (!failures.isEmpty()) {
            throw new IllegalStateException(failures.get(0));
        }
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return (rt.totalMemory() - rt.freeMemory()) >> 20;
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    private static double ms(long[] sorted, double q) {
        return sorted.length == 0 ? Double.NaN : sorted[Math.min(sorted.length - 1, (int) (sorted.length * q))] / 1e6;
    }
}
