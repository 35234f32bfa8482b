package io.hotsched.conformance.defaults;

import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.Status;
import io.hotsched.conformance.runner.Check;
import io.hotsched.conformance.runner.ConformanceRunner;
import io.hotsched.core.cache.ObjectStore;
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.config.SchedulerConfig;
import io.hotsched.core.extender.Extenders;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.FrameworkBuilder;
import io.hotsched.core.runtime.FrameworkImpl;
import io.hotsched.core.runtime.FrameworkServices;
import io.hotsched.core.runtime.ParallelizerImpl;
import io.hotsched.core.runtime.PreFilterOutcome;
import io.hotsched.core.runtime.SchedulerHooks;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.plugins.defaults.defaultpreemption.Candidate;
import io.hotsched.plugins.defaults.defaultpreemption.CandidateLimits;
import io.hotsched.plugins.defaults.defaultpreemption.DefaultPreemption;
import io.hotsched.plugins.defaults.defaultpreemption.Evaluator;
import io.hotsched.testing.FakeHandle;
import io.hotsched.testing.OnePoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.osgi.framework.Version;
import tools.jackson.databind.JsonNode;

/**
 * Runs DefaultPreemption's cases through a real framework of the core, composed of the plugins a
 * case names ({@code "NodeResourcesFit(PreFilter,Filter)"}, or one of upstream's test plugins,
 * {@link PreemptionTestPlugins}) plus a Filter plugin that counts how often the Filter plugins run
 * (failing each call with the case's {@code fakeFilterCode}, as upstream's FakeFilter does), so the
 * dry run's Filter calls can be compared with upstream's.
 */
final class PreemptionRunner {

    static final String COUNTER = "FilterCallCounter";

    private PreemptionRunner() {}

    /** The framework of one case, with the handle its plugins got and the cluster writes it made. */
    private record Composed(
            FrameworkImpl framework,
            Handle handle,
            AtomicInteger filterCalls,
            FakeHandle.FakeCluster cluster,
            ScheduledExecutorService timer,
            ParallelizerImpl parallelizer,
            FakeExtenders extenders,
            HeldTasks background)
            implements AutoCloseable {
        @Override
        public void close() {
            timer.shutdownNow();
            parallelizer.close();
            extenders.close();
        }
    }

    /** One case's input, expectations and framework, as every kind of case reads them. */
    private record Case(
            Composed f,
            JsonNode in,
            JsonNode want,
            List<NodeInfo> nodes,
            List<PodDisruptionBudget> pdbs,
            CandidateLimits limits) {
        PodInfo pod() {
            return PodInfo.of(ConformanceRunner.pod(in.path("pod")));
        }

        /** An evaluator that starts at the first node, as upstream's tests fix the offset. */
        Evaluator evaluator() {
            return new Evaluator(f.handle(), DefaultPreemption.NAME, limits, n -> 0);
        }
    }

    static void run(Map<String, PluginFactory> plugins, JsonNode c) throws Exception {
        JsonNode in = c.path("input");
        JsonNode want = c.path("expected");
        List<NodeInfo> nodes = ConformanceRunner.nodes(in);
        List<PodDisruptionBudget> pdbs = new ArrayList<>();
        for (JsonNode p : in.path("pdbs")) {
            pdbs.add(ConformanceRunner.JSON.treeToValue(p, PodDisruptionBudget.class));
        }
        try (Composed f = compose(plugins, in, nodes, pdbs)) {
            Map<String, Object> args = ConformanceRunner.args(in);
            CandidateLimits limits = new CandidateLimits(
                    ((Number) args.getOrDefault("minCandidateNodesPercentage", 10)).intValue(),
                    ((Number) args.getOrDefault("minCandidateNodesAbsolute", 100)).intValue());
            Case k = new Case(f, in, want, nodes, pdbs, limits);
            switch (c.path("kind").asText()) {
                case "postfilter", "preempt" -> postFilter(k);
                case "postfilter+preEnqueue" -> preEnqueue(k);
                case "dryRunPreemption" -> dryRun(k);
                case "selectCandidate" -> select(k);
                case "podEligibleToPreemptOthers" -> eligibility(k);
                default -> Check.fail("case kind '" + c.path("kind").asText() + "' is not run for DefaultPreemption");
            }
        }
    }

    private static void postFilter(Case k) {
        Composed f = k.f();
        JsonNode in = k.in();
        JsonNode want = k.want();
        PodInfo pod = k.pod();
        CycleState state = new CycleState();
        preFilter(f, state, pod, k.nodes());
        Map<String, Status> explicit = new HashMap<>();
        in.path("filteredNodesStatuses")
                .properties()
                .forEach(e -> explicit.put(
                        e.getKey(),
                        Status.of(ConformanceRunner.codeOf(ConformanceRunner.JSON
                                .createObjectNode()
                                .put("code", e.getValue().asText())))));
        // nodes without a status were not rejected in a way preemption could help with
        NodeToStatus statuses = new NodeToStatus(explicit, Status.unresolvable());
        PostFilterResult r = f.framework().runPostFilter(state, pod, statuses);
        if (want.has("status")) {
            ConformanceRunner.assertStatus(want.get("status"), r.status(), "PostFilter");
        }
        if (want.has("postFilterResult")) {
            Check.equal(
                    want.get("postFilterResult").path("nominatedNodeName").asText(),
                    r.nominatedNodeName(),
                    "nominated node");
        }
        if (want.has("deletedPods")) {
            List<String> expected = new ArrayList<>();
            want.get("deletedPods").forEach(p -> expected.add(p.asText()));
            List<String> deleted = f.cluster().deleted().stream()
                    .map(key -> key.substring(key.indexOf('/') + 1))
                    .sorted()
                    .toList();
            Check.equal(expected.stream().sorted().toList(), deleted, "deleted pods");
            for (var patched : f.cluster().statusPatches()) {
                Check.isTrue(
                        patched.getStatus().getConditions().stream()
                                .anyMatch(cd -> "DisruptionTarget".equals(cd.getType())
                                        && "PreemptionByScheduler".equals(cd.getReason())),
                        "victim " + patched.getMetadata().getName() + " marked as disruption target");
            }
            Check.equal(deleted.size(), f.cluster().statusPatches().size(), "one DisruptionTarget patch per victim");
        }
    }

    /**
     * upstream's TestPreEnqueue: {@code pod} preempts first, then {@code podToCheck} goes through
     * PreEnqueue: before the preemption's background work has run, or, with {@code
     * preEnqueueDuringDeletionOf}, while the deletion of that victim is asked for (upstream's test
     * holds its PreemptPod there).
     */
    private static void preEnqueue(Case k) {
        postFilter(k);
        FrameworkImpl framework = k.f().framework();
        PodInfo check = PodInfo.of(ConformanceRunner.pod(k.in().path("podToCheck")));
        JsonNode want = k.want().path("preEnqueueStatus");
        String victim = k.in().path("preEnqueueDuringDeletionOf").asText("");
        if (victim.isEmpty()) {
            ConformanceRunner.assertStatus(want, framework.runPreEnqueuePlugins(check), "PreEnqueue");
            return;
        }
        AtomicReference<Status> during = new AtomicReference<>();
        k.f().cluster().beforeDeleting(p -> {
            if (p.name().equals(victim)) {
                during.set(framework.runPreEnqueuePlugins(check));
            }
        });
        k.f().background().runAll();
        Check.notNull(during.get(), "the deletion of victim " + victim + " was asked for");
        ConformanceRunner.assertStatus(want, during.get(), "PreEnqueue during the deletion of " + victim);
    }

    /** The background work plugins hand over, held until the case runs it. */
    private static final class HeldTasks implements Executor {
        private final List<Runnable> tasks = new ArrayList<>();

        @Override
        public synchronized void execute(Runnable task) {
            tasks.add(task);
        }

        void runAll() {
            List<Runnable> now;
            synchronized (this) {
                now = List.copyOf(tasks);
                tasks.clear();
            }
            now.forEach(Runnable::run);
        }
    }

    /** The case's {@code features}, gate name to on; a gate not named is off. */
    private static Predicate<String> features(JsonNode in) {
        Map<String, Boolean> on = new HashMap<>();
        in.path("features")
                .properties()
                .forEach(e -> on.put(e.getKey(), e.getValue().asBoolean()));
        return gate -> on.getOrDefault(gate, false);
    }

    private static void dryRun(Case k) {
        Composed f = k.f();
        List<NodeInfo> nodes = k.nodes();
        JsonNode offsets = k.in().path("offsetPerCycle");
        JsonNode expectedCycles = k.want().path("candidatesPerCycle");
        JsonNode expectedCalls = k.want().path("extraFilterCallsPerCycle");
        int cycle = 0;
        for (JsonNode p : k.in().path("pods")) {
            PodInfo pod = PodInfo.of(ConformanceRunner.pod(p));
            CycleState state = new CycleState();
            preFilter(f, state, pod, nodes);
            Evaluator ev = k.evaluator();
            int offset = offsets.has(cycle) ? offsets.get(cycle).asInt() : 0;
            f.filterCalls().set(0);
            Evaluator.DryRun dr =
                    ev.dryRun(state, pod, nodes, k.pdbs(), offset, ev.numCandidates(nodes.size()), Instant.now());
            // upstream's test compares candidates sorted by node name, victims by pod name
            List<String> actual = dr.candidates().stream()
                    .sorted(Comparator.comparing(Candidate::nodeName))
                    .map(PreemptionRunner::describe)
                    .toList();
            List<String> expected = new ArrayList<>();
            for (JsonNode e : expectedCycles.path(cycle)) {
                List<String> victims = new ArrayList<>();
                e.path("victims").forEach(v -> victims.add(v.asText()));
                expected.add(e.path("node").asText() + " "
                        + victims.stream().sorted().toList() + " pdbViolations="
                        + e.path("numPDBViolations").asInt());
            }
            expected.sort(null);
            Check.equal(expected, actual, "candidates of cycle " + cycle);
            if (expectedCalls.has(cycle)) {
                Check.equal(
                        expectedCalls.get(cycle).asInt(),
                        f.filterCalls().get(),
                        "Filter runs in the dry run of cycle " + cycle);
            }
            cycle++;
        }
        Check.equal(expectedCycles.size(), cycle, "cycles run");
    }

    private static String describe(Candidate c) {
        return c.nodeName() + " "
                + c.victims().stream().map(PodInfo::name).sorted().toList() + " pdbViolations=" + c.numPDBViolations();
    }

    private static void select(Case k) {
        PodInfo pod = k.pod();
        CycleState state = new CycleState();
        preFilter(k.f(), state, pod, k.nodes());
        Evaluator ev = k.evaluator();
        Instant now = Instant.now();
        Evaluator.DryRun dr =
                ev.dryRun(state, pod, k.nodes(), k.pdbs(), 0, k.nodes().size(), now);
        Candidate best = ev.select(dr.candidates(), now);
        Set<String> anyOf = new LinkedHashSet<>();
        k.want().path("selectedNodeAnyOf").forEach(n -> anyOf.add(n.asText()));
        Check.isTrue(
                best != null && anyOf.contains(best.nodeName()),
                "selected " + (best == null ? "nothing" : best.nodeName()) + ", expected one of " + anyOf
                        + "; candidates " + dr.candidates());
    }

    private static void eligibility(Case k) {
        JsonNode want = k.want();
        JsonNode s = k.in().path("nominatedNodeStatus");
        Status nominatedStatus = s.isNull() || s.isMissingNode()
                ? null
                : Status.of(ConformanceRunner.codeOf(
                        s.isObject()
                                ? s
                                : ConformanceRunner.JSON.createObjectNode().put("code", s.asText())));
        Evaluator.Eligibility e = k.evaluator().eligibility(k.pod(), nominatedStatus);
        Check.equal(want.path("eligible").asBoolean(), e.eligible(), "eligible; message " + e.message());
        if (want.has("message")) {
            Check.equal(want.get("message").asText(), e.message(), "message");
        }
    }

    private static void preFilter(Composed f, CycleState state, PodInfo pod, List<NodeInfo> nodes) {
        PreFilterOutcome o = f.framework().runPreFilter(state, pod, new Snapshot(nodes));
        Check.isTrue(
                o.status() == null || o.status().isSuccess() || o.status().code() != Code.ERROR,
                "PreFilter failed: " + o.status());
    }

    // ---- composing the framework ---------------------------------------------------------------------

    private static Composed compose(
            Map<String, PluginFactory> plugins, JsonNode in, List<NodeInfo> nodes, List<PodDisruptionBudget> pdbs)
            throws Exception {
        Map<String, List<String>> byPoint = new TreeMap<>();
        Map<String, PluginFactory> used = new LinkedHashMap<>();
        AtomicInteger calls = new AtomicInteger();
        AtomicReference<Handle> handle = new AtomicReference<>();
        // upstream's FakeFilter: counts every call and answers the case's fakeFilterCode (default Success)
        Status counted = in.has("fakeFilterCode")
                ? Status.of(ConformanceRunner.codeOf(ConformanceRunner.JSON
                        .createObjectNode()
                        .put("code", in.get("fakeFilterCode").asText())))
                : Status.SUCCESS;
        used.put(COUNTER, (args, h) -> {
            handle.set(h);
            return new OnePoint.Filter(COUNTER, (state, pod, node) -> {
                calls.incrementAndGet();
                return counted.isSuccess()
                        ? Status.SUCCESS
                        : Status.of(counted.code(), "injecting failure for pod " + pod.name());
            });
        });
        byPoint.computeIfAbsent("filter", k -> new ArrayList<>()).add(COUNTER);
        for (String name : List.of("PrioritySort", "DefaultBinder", DefaultPreemption.NAME)) {
            used.put(name, plugins.get(name));
        }
        byPoint.computeIfAbsent("queueSort", k -> new ArrayList<>()).add("PrioritySort");
        byPoint.computeIfAbsent("bind", k -> new ArrayList<>()).add("DefaultBinder");
        byPoint.computeIfAbsent("postFilter", k -> new ArrayList<>()).add(DefaultPreemption.NAME);
        byPoint.computeIfAbsent("preEnqueue", k -> new ArrayList<>()).add(DefaultPreemption.NAME);
        for (JsonNode p : in.path("plugins")) {
            String spec = p.asText();
            int open = spec.indexOf('(');
            String name = open < 0 ? spec : spec.substring(0, open);
            PluginFactory factory = plugins.getOrDefault(name, PreemptionTestPlugins.ALL.get(name));
            if (factory == null) {
                Check.fail("plugin " + name
                        + " named by the case is neither in this bundle nor one of upstream's test plugins");
            }
            used.put(name, factory);
            if (open < 0) {
                continue;
            }
            for (String point : spec.substring(open + 1, spec.length() - 1).split(",")) {
                String key = Character.toLowerCase(point.trim().charAt(0))
                        + point.trim().substring(1);
                List<String> names = byPoint.computeIfAbsent(key, k -> new ArrayList<>());
                if (!names.contains(name)) {
                    names.add(name);
                }
            }
        }
        StringBuilder yaml = new StringBuilder(
                "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
                        + "profiles:\n- schedulerName: default-scheduler\n  plugins:\n    multiPoint:\n      disabled:\n      - name: \"*\"\n");
        byPoint.forEach((point, names) -> {
            yaml.append("    ").append(point).append(":\n      enabled:\n");
            names.forEach(n -> yaml.append("      - name: ").append(n).append('\n'));
        });
        String args = ConformanceRunner.JSON.writeValueAsString(
                in.path("args").isObject() ? in.path("args") : ConformanceRunner.JSON.createObjectNode());
        yaml.append("  pluginConfig:\n  - name: ")
                .append(DefaultPreemption.NAME)
                .append("\n    args: ")
                .append(args)
                .append('\n');
        FakeExtenders extenders = new FakeExtenders(in.path("extenders"));
        yaml.append(extenders.yaml());
        SchedulerConfig config = ConfigParser.parse(yaml.toString(), "case.yaml");
        ObjectStore objects = new ObjectStore();
        pdbs.forEach(pdb -> objects.changed("PodDisruptionBudget", null, pdb));
        FakeHandle.FakeCluster cluster = new FakeHandle().cluster();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        ParallelizerImpl parallelizer = new ParallelizerImpl(1, "case");
        Snapshot snapshot = new Snapshot(nodes);
        HeldTasks background = new HeldTasks();
        FrameworkServices services = new FrameworkServices(parallelizer, cluster, () -> snapshot, n -> List.of(), timer)
                .withObjects(objects)
                .withHooks(new SchedulerHooks(features(in), pod -> {}, background));
        FrameworkBuilder.Result r = FrameworkBuilder.build(
                config.profiles().get(0),
                "case.yaml",
                0,
                n -> Optional.ofNullable(used.get(n))
                        .map(fac -> new Registration(n, fac, "case", Version.emptyVersion, 1)),
                services,
                Extenders.of(config.extenders(), null));
        if (!(r instanceof FrameworkBuilder.Built b)) {
            timer.shutdownNow();
            parallelizer.close();
            extenders.close();
            throw new AssertionError("the case's framework did not build: " + r + "\n" + yaml);
        }
        return new Composed(b.framework(), handle.get(), calls, cluster, timer, parallelizer, extenders, background);
    }
}
