package io.hotsched.conformance.loadaware;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.conformance.runner.Check;
import io.hotsched.conformance.runner.ConformanceRunner;
import io.hotsched.core.runtime.PluginArgsImpl;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.plugins.loadaware.Args;
import io.hotsched.plugins.loadaware.AssignedPod;
import io.hotsched.plugins.loadaware.Estimator;
import io.hotsched.plugins.loadaware.LoadAwareArgs;
import io.hotsched.plugins.loadaware.LoadAwareScheduling;
import io.hotsched.plugins.loadaware.NodeLoad;
import io.hotsched.plugins.loadaware.NodeMetricView;
import io.hotsched.plugins.loadaware.Vectorizer;
import io.hotsched.testing.FakeHandle;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs Koordinator's LoadAwareScheduling cases (conformance/koordinator/loadaware.json): Filter
 * and Score through the plugin with a fixed clock, and the estimator, the aggregated usages and
 * the assigned-pod load computation on their own, as upstream's unit tests do. Times in the cases
 * are offsets in seconds from the moment the plugin runs.
 */
final class LoadAwareRunner {

    private LoadAwareRunner() {}

    static void run(PluginFactory factory, JsonNode c) throws Exception {
        JsonNode in = c.path("input");
        JsonNode want = c.path("expected");
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        switch (c.path("kind").asText()) {
            case "filter", "score" -> framework(factory, c.path("kind").asText(), in, want, now);
            case "estimatePod" -> {
                LoadAwareArgs args = args(in);
                Vectorizer v = new Vectorizer(args.resourceNames());
                long[] e = new Estimator(args, v).estimatePod(pod(in.path("pod"), now));
                Check.equal(longs(want.path("estimated")), named(v, e, want.path("estimated")), "estimate");
            }
            case "estimateNode" -> {
                LoadAwareArgs args = args(in);
                Map<String, Quantity> alloc =
                        new Estimator(args, new Vectorizer(args.resourceNames())).estimateNode(node(in.path("node")));
                Map<String, String> got = new LinkedHashMap<>();
                alloc.forEach((k, q) ->
                        got.put(k, q.getNumericalAmount().stripTrailingZeros().toPlainString()));
                Map<String, String> expected = new LinkedHashMap<>();
                want.path("allocatable")
                        .properties()
                        .forEach(e -> expected.put(
                                e.getKey(),
                                new Quantity(e.getValue().asText())
                                        .getNumericalAmount()
                                        .stripTrailingZeros()
                                        .toPlainString()));
                Check.equal(expected, got, "estimated node allocatable");
            }
            case "estimateDeadline" -> {
                LoadAwareArgs args = args(in);
                Pod pod = in.path("pod").isNull() ? null : pod(in.path("pod"), now);
                long timestamp = now.plusSeconds(
                                in.path("timestampOffsetSeconds").asLong())
                        .toEpochMilli();
                long deadline = new Estimator(args, new Vectorizer(args.resourceNames())).deadline(pod, timestamp);
                JsonNode w = want.path("deadlineOffsetSeconds");
                Check.equal(
                        w.isNull() ? "none" : String.valueOf(w.asLong()),
                        deadline == 0 ? "none" : String.valueOf((deadline - now.toEpochMilli()) / 1000),
                        "deadline (seconds from now)");
            }
            case "aggregatedUsage" -> {
                Vectorizer v = vectorizer(in);
                NodeMetricView m = NodeMetricView.of(nodeMetric(in.path("nodeMetric"), now), v);
                long[] got = m.aggregated(
                        in.path("aggregationType").asText(),
                        durationMillis(in.path("aggregatedDuration").asText()));
                Check.equal(
                        longs(want.path("vector")),
                        got == null ? null : named(v, got, want.path("vector")),
                        "aggregated usage");
            }
            case "cache" -> cache(in, want, now);
            default -> Check.fail("case kind '" + c.path("kind").asText() + "' is not run for LoadAwareScheduling");
        }
    }

    private static void framework(PluginFactory factory, String kind, JsonNode in, JsonNode want, Instant now)
            throws Exception {
        FakeHandle handle = new FakeHandle();
        handle.setClock(Clock.fixed(now, ZoneOffset.UTC));
        if (in.has("nodeMetric") && !in.path("nodeMetric").isNull()) {
            handle.addObject(nodeMetric(in.path("nodeMetric"), now));
        }
        NodeInfo node = new NodeInfo(node(in.path("node")));
        int uid = 0;
        for (JsonNode a : in.path("assignedPods")) {
            Pod p = pod(a.has("pod") ? a.path("pod") : a, now);
            if (p.getMetadata().getUid() == null) {
                p.getMetadata().setUid("assigned-" + uid++);
            }
            p.getSpec().setNodeName(node.name());
            if (a.has("assignedSecondsAgo") && !scheduled(p)) {
                // the cache's timestamp for the pod: when it was scheduled
                p.getStatus()
                        .getConditions()
                        .add(new PodConditionBuilder()
                                .withType("PodScheduled")
                                .withStatus("True")
                                .withLastTransitionTime(now.minusSeconds(
                                                a.path("assignedSecondsAgo").asLong())
                                        .toString())
                                .build());
            }
            node.addPod(PodInfo.of(p));
        }
        handle.setSnapshot(new Snapshot(List.of(node)));
        LoadAwareScheduling plugin =
                (LoadAwareScheduling) factory.create(new PluginArgsImpl(ConformanceRunner.args(in)), handle);
        PodInfo pod = PodInfo.of(pod(in.path("pod"), now));
        CycleState state = new CycleState();
        plugin.preFilter(state, pod, new Snapshot(List.of(node)));
        if (kind.equals("filter")) {
            Status st = plugin.filter(state, pod, node);
            ConformanceRunner.assertStatus(want.path("status"), st, "Filter");
        } else {
            Check.equal(want.path("score").asLong(), plugin.score(state, pod, node), "score");
        }
    }

    private static boolean scheduled(Pod p) {
        if (p.getStatus() == null) {
            p.setStatus(new PodStatus());
        }
        if (p.getStatus().getConditions() == null) {
            p.getStatus().setConditions(new ArrayList<>());
        }
        return p.getStatus().getConditions().stream()
                .anyMatch(cd -> "PodScheduled".equals(cd.getType()) && "True".equals(cd.getStatus()));
    }

    /** The assigned-pod cache: events applied in order, then (and at checkpoints) the node's load compared. */
    private static void cache(JsonNode in, JsonNode want, Instant now) throws Exception {
        Vectorizer v = vectorizer(in);
        LoadAwareArgs args = args(in);
        LoadAwareArgs estimatorArgs = in.has("estimatorArgs")
                ? LoadAwareArgs.asGiven(ConformanceRunner.JSON.treeToValue(in.path("estimatorArgs"), Args.class))
                : args;
        Estimator estimator = new Estimator(estimatorArgs, v);
        long clock = now.plusSeconds(in.path("clockOffsetSeconds").asLong()).toEpochMilli();
        String nodeName = want.path("node").asText();
        Map<String, Pod> pods = new LinkedHashMap<>();
        NodeMetricView metric = null;
        for (JsonNode e : in.path("events")) {
            switch (e.path("op").asText()) {
                case "addOrUpdateNodeMetric" -> metric = NodeMetricView.of(nodeMetric(e.path("nodeMetric"), now), v);
                case "deleteNodeMetric" -> metric = null;
                case "podAdd", "podUpdate" -> {
                    // an update replaces the pod; one that left the node (or never was on it) is not counted
                    Pod p = pod(e.path("pod"), now);
                    if (nodeName.equals(p.getSpec().getNodeName())) {
                        pods.put(uidOf(p), p);
                    } else {
                        pods.remove(uidOf(p));
                    }
                }
                case "podDelete" -> pods.remove(uidOf(pod(e.path("pod"), now)));
                case "checkpoint" ->
                    compare(
                            want.path("checkpoints").path(e.path("id").asText()),
                            pods,
                            metric,
                            estimator,
                            args,
                            v,
                            clock,
                            now,
                            "checkpoint " + e.path("id").asText());
                default -> Check.fail("cache event " + e.path("op") + " is not known to the runner");
            }
        }
        if (want.path("nodeInfoAbsent").asBoolean(false)) {
            Check.isTrue(pods.isEmpty() && metric == null, "the node has no entry any more (no pods, no NodeMetric)");
        }
        if (want.has("existingLoadLookup")) {
            NodeLoad load = NodeLoad.of(assigned(pods, estimator, clock), metric, v.size(), args.prodUsageIncludeSys());
            Check.equal(
                    want.path("existingLoadLookup").path("code").asText(),
                    load.found() ? "Found" : "NotFound",
                    "existing load lookup");
        }
        if (want.has("nodeInfo")) {
            compare(want.path("nodeInfo"), pods, metric, estimator, args, v, clock, now, "node");
        }
    }

    private static void compare(
            JsonNode w,
            Map<String, Pod> pods,
            NodeMetricView metric,
            Estimator estimator,
            LoadAwareArgs args,
            Vectorizer v,
            long clock,
            Instant now,
            String what) {
        List<AssignedPod> assigned = assigned(pods, estimator, clock);
        if (w.has("podCount")) {
            Check.equal(w.path("podCount").asInt(), assigned.size(), what + ": pods counted");
        }
        for (JsonNode wp : w.path("pods")) {
            AssignedPod a = assigned.stream()
                    .filter(p -> p.uid().equals(wp.path("uid").asText()))
                    .findFirst()
                    .orElse(null);
            Check.notNull(a, what + ": pod " + wp.path("uid").asText() + " counted");
            Check.equal(
                    wp.path("timestampOffsetSeconds").asLong(),
                    (a.timestampMillis() - now.toEpochMilli()) / 1000,
                    what + ": timestamp of " + a.uid());
            Check.equal(
                    longs(wp.path("estimated")),
                    a.estimated() == null ? null : named(v, a.estimated(), wp.path("estimated")),
                    what + ": estimate of " + a.uid());
            JsonNode d = wp.path("estimatedDeadline");
            Check.equal(
                    d.isNull() || d.isMissingNode() ? "none" : d.asText(),
                    a.deadlineMillis() == 0 ? "none" : String.valueOf(a.deadlineMillis()),
                    what + ": deadline of " + a.uid());
        }
        NodeMetricView m = metric;
        NodeLoad load = NodeLoad.of(assigned, m, v.size(), args.prodUsageIncludeSys());
        vector(w, "nodeDelta", load.found() ? load.nodeDelta() : null, v, what);
        vector(w, "prodDelta", load.found() ? load.prodDelta() : null, v, what);
        vector(w, "nodeEstimated", load.found() ? load.nodeEstimated() : null, v, what);
        vector(w, "prodUsage", load.found() ? load.prodUsage() : null, v, what);
        podList(w, "nodeDeltaPods", load.found() ? load.nodeDeltaPods() : List.of(), what);
        podList(w, "prodDeltaPods", load.found() ? load.prodDeltaPods() : List.of(), what);
        podList(w, "nodeEstimatedPods", load.found() ? load.nodeEstimatedPods() : List.of(), what);
    }

    private static void vector(JsonNode w, String field, long[] actual, Vectorizer v, String what) {
        if (w.has(field)) {
            Check.equal(
                    longs(w.path(field)), actual == null ? null : named(v, actual, w.path(field)), what + ": " + field);
        }
    }

    private static void podList(JsonNode w, String field, List<String> actual, String what) {
        if (w.has(field)) {
            List<String> expected = new ArrayList<>();
            w.path(field).forEach(p -> expected.add(p.asText()));
            Check.equal(
                    expected.stream().sorted().toList(),
                    actual.stream().sorted().toList(),
                    what + ": " + field);
        }
    }

    private static List<AssignedPod> assigned(Map<String, Pod> pods, Estimator estimator, long clock) {
        List<AssignedPod> out = new ArrayList<>();
        for (Map.Entry<String, Pod> e : pods.entrySet()) {
            Pod p = e.getValue();
            AssignedPod a = LoadAwareScheduling.assign(
                    p, e.getKey(), ns(p) + "/" + p.getMetadata().getName(), estimator, () -> clock);
            if (a != null) {
                out.add(a);
            }
        }
        return out;
    }

    // ---- inputs ----------------------------------------------------------------------------------

    /**
     * The case's args for upstream's unit tests of the parts: set in code, v1-defaulted unless
     * {@code argsDefaulting} is false, not validated (Filter and Score cases go through the factory).
     */
    private static LoadAwareArgs args(JsonNode in) throws Exception {
        Args a = in.path("args").isObject()
                ? ConformanceRunner.JSON.treeToValue(in.path("args"), Args.class)
                : new Args();
        return in.path("argsDefaulting").asBoolean(true)
                ? LoadAwareArgs.defaultedUnchecked(a)
                : LoadAwareArgs.asGiven(a);
    }

    private static Vectorizer vectorizer(JsonNode in) {
        List<String> names = new ArrayList<>();
        in.path("vectorizer").forEach(n -> names.add(n.asText()));
        return new Vectorizer(names);
    }

    /** Replaces the field {@code time + "OffsetSeconds"} of {@code o}, when there is one, by {@code time}: now plus the offset. */
    private static void offsetToTime(ObjectNode o, String time, Instant now) {
        String offset = time + "OffsetSeconds";
        if (o.has(offset)) {
            o.put(time, now.plusSeconds(o.path(offset).asLong()).toString());
            o.remove(offset);
        }
    }

    /** A NodeMetric with {@code status.updateTimeOffsetSeconds} turned into {@code status.updateTime}. */
    static GenericKubernetesResource nodeMetric(JsonNode n, Instant now) {
        ObjectNode copy = (ObjectNode) n.deepCopy();
        JsonNode status = copy.path("status");
        if (status.isObject()) {
            offsetToTime((ObjectNode) status, "updateTime", now);
        }
        if (!copy.has("metadata") || copy.path("metadata").isEmpty()) {
            copy.putObject("metadata").put("name", "node");
        }
        return ConformanceRunner.JSON.treeToValue(copy, GenericKubernetesResource.class);
    }

    /** A pod with its conditions' {@code lastTransitionTimeOffsetSeconds} turned into times. */
    static Pod pod(JsonNode n, Instant now) {
        JsonNode copy = n.deepCopy();
        for (JsonNode cond : copy.path("status").path("conditions")) {
            offsetToTime((ObjectNode) cond, "lastTransitionTime", now);
        }
        Pod p = ConformanceRunner.pod(copy);
        if (p.getMetadata().getNamespace() == null) {
            p.getMetadata().setNamespace("default");
        }
        return p;
    }

    private static Node node(JsonNode n) {
        Node node = ConformanceRunner.JSON.treeToValue(
                n.isMissingNode() ? ConformanceRunner.JSON.createObjectNode() : n, Node.class);
        if (node.getMetadata() == null) {
            node.setMetadata(new ObjectMeta());
        }
        if (node.getMetadata().getName() == null) {
            node.getMetadata().setName("node");
        }
        return node;
    }

    private static String uidOf(Pod p) {
        return p.getMetadata().getUid() != null
                ? p.getMetadata().getUid()
                : ns(p) + "/" + p.getMetadata().getName();
    }

    private static String ns(Pod p) {
        return p.getMetadata().getNamespace() == null
                ? "default"
                : p.getMetadata().getNamespace();
    }

    private static long durationMillis(String goDuration) {
        Matcher m = Pattern.compile("(\\d+)(h|m|s)").matcher(goDuration);
        long ms = 0;
        while (m.find()) {
            long n = Long.parseLong(m.group(1));
            ms += switch (m.group(2)) {
                case "h" -> n * 3_600_000;
                case "m" -> n * 60_000;
                default -> n * 1000;
            };
        }
        return ms;
    }

    private static Map<String, Long> longs(JsonNode o) {
        if (o == null || o.isNull() || o.isMissingNode()) {
            return null;
        }
        Map<String, Long> m = new LinkedHashMap<>();
        o.properties().forEach(e -> m.put(e.getKey(), e.getValue().asLong()));
        return m;
    }

    /** The entries of {@code vector} for the names {@code like} has, in its order. */
    private static Map<String, Long> named(Vectorizer v, long[] vector, JsonNode like) {
        Map<String, Long> m = new LinkedHashMap<>();
        like.propertyNames().forEach(name -> {
            int i = v.indexOf(name);
            m.put(name, i < 0 ? 0 : vector[i]);
        });
        return m;
    }
}
