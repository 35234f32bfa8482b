package io.hotsched.bench.perf;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs one workload's operations against the API server as scheduler_perf's harness does:
 * createNodes (generated names unless the template names its one node, {@code kubernetes.io/hostname},
 * labels round-robin), createNamespaces, createPods (into {@code namespace-<op index>} unless named;
 * waits until all are scheduled, or measures while they are), deletePods (the pods this run created
 * in a namespace, at a rate, in the background or not), churn (in the background), barrier (all
 * scheduled, or with {@code stageRequirement: Attempted} all given a PodScheduled condition) and
 * sleep.
 */
final class Runner implements AutoCloseable {

    /** What the measured createPods op gave. */
    record Measured(
            String namespace,
            int pods,
            Throughput.Summary throughput,
            double seconds,
            double schedulerCpu,
            double runnerCpu,
            List<Histograms.Item> durations,
            Map<String, Double> schedulerThreads,
            Map<String, Double> runnerThreads) {}

    private static final JsonMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private final Target target;
    private final Progress progress;
    private final ExecutorService creators = Executors.newFixedThreadPool(8);
    private final ScheduledExecutorService churn = Executors.newSingleThreadScheduledExecutor();
    private final Random random = new Random();
    private final AtomicInteger names = new AtomicInteger();
    private final Map<String, Integer> created = new HashMap<>();
    private final Map<String, List<Pod>> createdPods = new HashMap<>();
    private final List<Future<?>> background = new ArrayList<>();

    Runner(Target target, Progress progress) {
        this.target = target;
        this.progress = progress;
    }

    private static double ownCpu() {
        return ProcessHandle.current()
                .info()
                .totalCpuDuration()
                .map(d -> d.toMillis() / 1000.0)
                .orElse(-1.0);
    }

    Measured run(PerfCases.Case c, PerfCases.Workload w) throws Exception {
        Measured measured = null;
        List<Map<String, Object>> ops = c.ops();
        for (int i = 0; i < ops.size(); i++) {
            Map<String, Object> op = ops.get(i);
            String opcode = (String) op.get("opcode");
            switch (opcode) {
                case "createNodes" -> createNodes(c, op, count(op, w));
                case "createNamespaces" -> {
                    for (int n = 0; n < count(op, w); n++) {
                        target.namespace(op.get("prefix") + "-" + n);
                    }
                }
                case "createPods" -> {
                    String ns = op.get("namespace") != null ? (String) op.get("namespace") : "namespace-" + i;
                    Measured m = createPods(c, op, ns, count(op, w));
                    if (m != null) {
                        measured = m;
                    }
                }
                case "churn" -> startChurn(c, op, i);
                case "barrier" -> {
                    boolean attempted = "Attempted".equals(op.get("stageRequirement"));
                    for (Map.Entry<String, Integer> e : created.entrySet()) {
                        if (attempted) {
                            awaitAttempted(e.getKey(), e.getValue());
                        } else {
                            awaitScheduled(e.getKey(), e.getValue());
                        }
                    }
                }
                case "deletePods" -> deletePods(op);
                case "sleep" ->
                    Thread.sleep(Long.parseLong(String.valueOf(op.getOrDefault("durationMilliseconds", "0"))));
                default ->
                    throw new IllegalArgumentException(
                            c.name() + ": opcode " + opcode + " is not supported by this runner");
            }
        }
        return measured;
    }

    private static int count(Map<String, Object> op, PerfCases.Workload w) {
        Object n = op.get("count");
        if (op.get("countParam") instanceof String p && p.startsWith("$")) {
            n = w.params().get(p.substring(1));
        }
        if (!(n instanceof Number num)) {
            throw new IllegalArgumentException("no count for " + op + " in params " + w.params());
        }
        return num.intValue();
    }

    private void createNodes(PerfCases.Case c, Map<String, Object> op, int count) throws Exception {
        String path = (String) op.getOrDefault("nodeTemplatePath", "../templates/node-default.yaml");
        Map<String, Object> template = PerfCases.template(c, path);
        @SuppressWarnings("unchecked")
        Map<String, Object> strategy = (Map<String, Object>) op.get("labelNodePrepareStrategy");
        progress.phase("createNodes", count);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Node n = JSON.convertValue(template, Node.class);
            String fixed = n.getMetadata().getName();
            if (fixed != null && count > 1) {
                throw new IllegalArgumentException(
                        c.name() + ": " + path + " names its node " + fixed + ", so count must be 1, not " + count);
            }
            String name = fixed != null ? fixed : generated(n.getMetadata().getGenerateName());
            n.getMetadata().setName(name);
            n.getMetadata().setGenerateName(null);
            n.getMetadata()
                    .setLabels(new HashMap<>(
                            n.getMetadata().getLabels() == null
                                    ? Map.of()
                                    : n.getMetadata().getLabels()));
            n.getMetadata().getLabels().put("kubernetes.io/hostname", name);
            if (strategy != null) {
                @SuppressWarnings("unchecked")
                List<String> values = (List<String>) strategy.get("labelValues");
                n.getMetadata().getLabels().put((String) strategy.get("labelKey"), values.get(i % values.size()));
            }
            if (n.getStatus() != null
                    && (n.getStatus().getAllocatable() == null
                            || n.getStatus().getAllocatable().isEmpty())) {
                // the API server defaults allocatable to capacity
                n.getStatus().setAllocatable(n.getStatus().getCapacity());
            }
            done.add(creators.submit(() -> {
                target.create(n);
                progress.created();
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
    }

    private String generated(String prefix) {
        StringBuilder b = new StringBuilder(prefix == null ? "obj-" : prefix);
        String alphabet = "bcdfghjklmnpqrstvwxz2456789";
        for (int i = 0; i < 5; i++) {
            b.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return b.append('-').append(names.incrementAndGet()).toString();
    }

    private Measured createPods(PerfCases.Case c, Map<String, Object> op, String ns, int count) throws Exception {
        String path = op.get("podTemplatePath") != null ? (String) op.get("podTemplatePath") : c.defaultPodTemplate();
        Map<String, Object> template = PerfCases.template(c, path);
        target.namespace(ns);
        boolean measure = Boolean.TRUE.equals(op.get("collectMetrics"));
        int before = target.scheduled(ns);
        progress.phase((measure ? "createPods (measured) in " : "createPods in ") + ns, count);
        Throughput throughput = measure ? new Throughput(() -> target.scheduled(ns) - before) : null;
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        Map<String, Histograms.Series> metrics0 = measure ? Histograms.parse(target.metricsText()) : Map.of();
        Map<String, Double> schedThreads0 = target.schedulerThreadCpu();
        Map<String, Double> ownThreads0 = ThreadCpu.of(ProcessHandle.current().pid());
        long t0 = System.nanoTime();
        double schedCpu0 = target.schedulerCpuSeconds();
        double ownCpu0 = ownCpu();
        sampler.scheduleAtFixedRate(
                () -> {
                    double rate = throughput != null ? throughput.sample() : 0;
                    progress.tick(target.scheduled(ns) - before, rate);
                },
                1,
                1,
                TimeUnit.SECONDS);
        try {
            List<Future<?>> done = new ArrayList<>();
            List<Pod> mine = createdPods.computeIfAbsent(ns, k -> new ArrayList<>());
            for (int i = 0; i < count; i++) {
                Pod p = JSON.convertValue(template, Pod.class);
                p.getMetadata().setName(generated(p.getMetadata().getGenerateName()));
                p.getMetadata().setGenerateName(null);
                p.getMetadata().setNamespace(ns);
                mine.add(p);
                done.add(creators.submit(() -> {
                    target.create(p);
                    progress.created();
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            created.merge(ns, count, Integer::sum);
            if (!Boolean.TRUE.equals(op.get("skipWaitToCompletion"))) {
                awaitScheduled(ns, before + count);
            }
        } finally {
            sampler.shutdownNow();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (!measure) {
            return null;
        }
        double schedCpu = target.schedulerCpuSeconds() - schedCpu0;
        double runnerCpu = ownCpu() - ownCpu0;
        List<Histograms.Item> durations =
                Histograms.standard(Histograms.delta(metrics0, Histograms.parse(target.metricsText())));
        return new Measured(
                ns,
                count,
                throughput.summary(),
                seconds,
                schedCpu,
                runnerCpu,
                durations,
                ThreadCpu.delta(schedThreads0, target.schedulerThreadCpu()),
                ThreadCpu.delta(
                        ownThreads0, ThreadCpu.of(ProcessHandle.current().pid())));
    }

    private void awaitScheduled(String ns, int expected) throws InterruptedException {
        int last = -1;
        long lastProgress = System.nanoTime();
        while (target.scheduled(ns) < expected) {
            int now = target.scheduled(ns);
            if (now != last) {
                last = now;
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > TimeUnit.SECONDS.toNanos(120)) {
                throw new IllegalStateException("no pod of " + ns + " scheduled for 120 s: " + now + " of " + expected);
            }
            Thread.sleep(20);
        }
    }

    private void awaitAttempted(String ns, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
        while (target.attempted(ns) < expected) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("pods of " + ns + " not all attempted after 300 s: "
                        + target.attempted(ns) + " of " + expected);
            }
            Thread.sleep(200);
        }
    }

    /**
     * Deletes the pods this run created in the op's namespace, {@code deletePodsPerSecond} a second
     * (all at once without it); with {@code skipWaitToCompletion} the next ops run meanwhile.
     */
    private void deletePods(Map<String, Object> op) throws Exception {
        String ns = (String) op.get("namespace");
        List<Pod> pods = List.copyOf(createdPods.getOrDefault(ns, List.of()));
        if (pods.isEmpty()) {
            throw new IllegalArgumentException("deletePods: this run created no pods in namespace " + ns);
        }
        int perSecond = op.get("deletePodsPerSecond") instanceof Number n ? n.intValue() : 0;
        Runnable deleting = () -> {
            long start = System.nanoTime();
            for (int i = 0; i < pods.size(); i++) {
                if (perSecond > 0) {
                    long due = start + i * 1_000_000_000L / perSecond;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        try {
                            TimeUnit.NANOSECONDS.sleep(wait);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                }
                target.delete(pods.get(i));
            }
            progress.note("deletePods: " + pods.size() + " pods of " + ns + " deleted");
        };
        Future<?> f = creators.submit(deleting);
        if (Boolean.TRUE.equals(op.get("skipWaitToCompletion"))) {
            background.add(f);
        } else {
            f.get();
        }
    }

    private void startChurn(PerfCases.Case c, Map<String, Object> op, int index) throws IOException {
        @SuppressWarnings("unchecked")
        List<String> paths = (List<String>) op.get("templatePaths");
        List<Map<String, Object>> templates = new ArrayList<>();
        for (String p : paths) {
            templates.add(PerfCases.template(c, p));
        }
        String ns = "churn-" + index;
        target.namespace(ns);
        boolean recreate = "recreate".equals(op.get("mode"));
        int number = op.get("number") instanceof Number n ? n.intValue() : 1;
        long interval = ((Number) op.getOrDefault("intervalMilliseconds", 500)).longValue();
        List<HasMetadata> live = new ArrayList<>();
        AtomicInteger next = new AtomicInteger();
        churn.scheduleAtFixedRate(
                () -> {
                    try {
                        if (recreate && !live.isEmpty()) {
                            for (HasMetadata o : live) {
                                target.delete(o);
                            }
                            live.clear();
                            return;
                        }
                        int k = recreate ? templates.size() * number : 1;
                        for (int j = 0; j < k; j++) {
                            Map<String, Object> t = templates.get(next.getAndIncrement() % templates.size());
                            HasMetadata o = object(t);
                            o.getMetadata().setName(generated(o.getMetadata().getGenerateName()));
                            o.getMetadata().setGenerateName(null);
                            if (!(o instanceof Node)) {
                                o.getMetadata().setNamespace(ns);
                            }
                            target.create(o);
                            live.add(o);
                        }
                    } catch (RuntimeException e) {
                        progress.note("churn: " + e.getMessage());
                    }
                },
                0,
                interval,
                TimeUnit.MILLISECONDS);
    }

    private static HasMetadata object(Map<String, Object> t) {
        return switch (String.valueOf(t.get("kind"))) {
            case "Node" -> JSON.convertValue(t, Node.class);
            case "Service" -> JSON.convertValue(t, Service.class);
            default -> JSON.convertValue(t, Pod.class);
        };
    }

    /** Waits for the ops that ran with {@code skipWaitToCompletion} (close() stops them instead). */
    void awaitBackground() throws Exception {
        for (Future<?> f : background) {
            f.get();
        }
    }

    @Override
    public void close() {
        churn.shutdownNow();
        creators.shutdownNow();
    }
}
