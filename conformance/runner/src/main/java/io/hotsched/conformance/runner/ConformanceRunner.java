package io.hotsched.conformance.runner;

import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.hotsched.api.framework.BindPlugin;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.ImageStateSummary;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeScores;
import io.hotsched.api.framework.ObjectKind;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreEnqueuePlugin;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.QueueSortPlugin;
import io.hotsched.api.framework.QueuedPodInfo;
import io.hotsched.api.framework.ScoreExtensions;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;
import io.hotsched.core.runtime.PluginArgsImpl;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.testing.FakeHandle;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs one upstream case through a plugin the way the framework would: PreFilter before Filter
 * (a Skip skips Filter), PreScore before Score, normalization after scoring all nodes; and compares
 * codes, reasons, node sets and scores with what upstream's own test asserts.
 */
public final class ConformanceRunner {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    private ConformanceRunner() {}

    /** The kind of a case that runs PreFilter, Filter on every node, PreScore and Score in one cycle. */
    public static final String CYCLE = "prefilter+filter+prescore+score";

    public static void run(PluginFactory factory, JsonNode c) throws Exception {
        JsonNode in = c.path("input");
        JsonNode want = c.path("expected");
        FakeHandle handle = handle(in);
        Plugin plugin;
        try {
            plugin = factory.create(new PluginArgsImpl(args(in)), handle);
        } catch (Exception e) {
            if (want.has("pluginConstructionError")) {
                JsonNode err = want.get("pluginConstructionError");
                String expected = err.isObject() ? err.path("field").asText() : err.asText();
                Check.isTrue(
                        !expected.isEmpty() && e.getMessage().contains(expected),
                        "expected an error about '" + expected + "', got: " + e.getMessage());
                return;
            }
            throw e;
        }
        if (want.has("pluginConstructionError")) {
            Check.fail("expected the plugin to refuse its arguments: " + want.get("pluginConstructionError"));
        }
        switch (c.path("kind").asText()) {
            case "filter", "prefilter+filter", "prefilter" ->
                filter(plugin, in, want, c.path("kind").asText(), handle);
            case "score", "prescore+score+normalize", "score+normalize" -> score(plugin, in, want, handle);
            case CYCLE -> CycleCases.run(plugin, in, want, handle);
            case ClaimCycleCases.KIND -> ClaimCycleCases.run(plugin, in, want, handle);
            case "less" -> less(plugin, in, want);
            case "bind" -> bind(plugin, in, want, handle);
            case "preEnqueue" ->
                assertStatus(
                        want.get("status"),
                        ((PreEnqueuePlugin) plugin).preEnqueue(PodInfo.of(pod(in.path("pod")))),
                        "PreEnqueue");
            case "helper" -> Helpers.run(plugin.name(), c);
            case "queueingHint" -> HintCases.run(plugin, in, want);
            default -> Check.fail("case kind '" + c.path("kind").asText() + "' is not run for plugin " + plugin.name());
        }
    }

    private static void filter(Plugin plugin, JsonNode in, JsonNode want, String kind, FakeHandle handle)
            throws Exception {
        PodInfo pod = PodInfo.of(pod(in.path("pod")));
        List<NodeInfo> nodes = nodes(in);
        handle.setSnapshot(new Snapshot(nodes));
        CycleState state = new CycleState();
        // the framework always runs PreFilter before Filter, unless a case says not to
        boolean runPreFilter = in.path("runPreFilter").asBoolean(true);
        if (runPreFilter && plugin instanceof PreFilterPlugin pf) {
            PreFilterResult r = pf.preFilter(state, pod, new Snapshot(nodes));
            if (want.has("preFilterStatus")) {
                assertStatus(want.get("preFilterStatus"), r.status(), "PreFilter");
            }
            if (want.has("preFilterResultNodeNames")) {
                assertPreFilterNodes(want.get("preFilterResultNodeNames"), r);
            }
            if (!r.status().isSuccess()) {
                Check.isTrue(
                        !want.has("status")
                                || r.status().isSkip()
                                || codeOf(want.get("status")) == r.status().code(),
                        "PreFilter failed with " + r.status() + " while Filter expectations exist");
                if (r.status().isSkip() && want.has("status")) {
                    assertStatus(want.get("status"), Status.SUCCESS, "Filter (skipped by PreFilter)");
                }
                return;
            }
        }
        if (want.has("status")) {
            Check.notNull(nodes.isEmpty() ? null : nodes.get(0), "a filter case needs a node");
            Status st = ((FilterPlugin) plugin).filter(state, pod, nodes.get(0));
            assertStatus(want.get("status"), st, "Filter");
        }
        if (want.has("filterStatus")) {
            for (NodeInfo n : nodes) {
                JsonNode w = want.get("filterStatus").path(n.name());
                Status st = ((FilterPlugin) plugin).filter(state, pod, n);
                assertStatus(w.isMissingNode() ? JSON.createObjectNode() : w, st, "Filter on " + n.name());
            }
        }
    }

    private static void score(Plugin plugin, JsonNode in, JsonNode want, FakeHandle handle) throws Exception {
        PodInfo pod = PodInfo.of(pod(in.path("pod")));
        List<NodeInfo> all = nodes(in);
        handle.setSnapshot(new Snapshot(all));
        // candidateNodes passed Filter and are scored; failedNodes are only in the snapshot
        List<NodeInfo> nodes =
                all.subList(0, all.size() - in.path("failedNodes").size());
        CycleState state = new CycleState();
        if (plugin instanceof PreScorePlugin ps && in.path("runPreScore").asBoolean(true)) {
            Status st = ps.preScore(state, pod, nodes);
            if (want.has("preScoreStatus")) {
                assertStatus(want.get("preScoreStatus"), st, "PreScore");
            }
            if (st.isSkip()) {
                return;
            }
        }
        ScorePlugin sp = (ScorePlugin) plugin;
        NodeScores scores = new NodeScores(nodes);
        for (int i = 0; i < nodes.size(); i++) {
            scores.set(i, sp.score(state, pod, nodes.get(i)));
        }
        if (want.has("scoreStatusCode")) {
            Check.fail("Score reports no status here; expected " + want.get("scoreStatusCode"));
        }
        if (want.has("rawScores") && !want.path("rawScoresDerived").asBoolean(false)) {
            Check.equal(expectedScores(want.get("rawScores")), actual(scores), "raw scores");
        }
        if (want.has("normalizedScores")) {
            ScoreExtensions ext = sp.scoreExtensions();
            if (ext != null) {
                Status st = ext.normalizeScore(state, pod, scores);
                Check.isTrue(st.isSuccess(), "normalize: " + st);
            }
            Check.equal(expectedScores(want.get("normalizedScores")), actual(scores), "normalized scores");
        }
    }

    private static void less(Plugin plugin, JsonNode in, JsonNode want) throws Exception {
        Instant t1 = instant(in.path("p1Timestamp"));
        Instant t2 = instant(in.path("p2Timestamp"));
        QueuedPodInfo a = new QueuedPodInfo(PodInfo.of(pod(in.path("p1"))), t1, 0, null);
        QueuedPodInfo b = new QueuedPodInfo(PodInfo.of(pod(in.path("p2"))), t2, 0, null);
        Check.equal(want.get("less(p1,p2)").asBoolean(), ((QueueSortPlugin) plugin).less(a, b), "less(p1,p2)");
    }

    private static void bind(Plugin plugin, JsonNode in, JsonNode want, FakeHandle handle) throws Exception {
        PodInfo pod = PodInfo.of(pod(in.path("pod")));
        if (in.has("apiServerBindError")) {
            handle.cluster().failBindsWith(in.get("apiServerBindError").asText());
        }
        Status st = ((BindPlugin) plugin)
                .bind(new CycleState(), pod, in.get("nodeName").asText());
        assertStatus(want.get("status"), st, "Bind");
        JsonNode binding = want.path("binding");
        if (binding.isNull()) {
            Check.isTrue(handle.cluster().bindings().isEmpty(), "no binding expected");
        } else if (!binding.isMissingNode()) {
            Check.equal(
                    List.of(binding.path("metadata").path("namespace").asText() + "/"
                            + binding.path("metadata").path("name").asText() + " -> "
                            + binding.path("target").path("name").asText()),
                    handle.cluster().bindings(),
                    "bindings");
        }
    }

    /** A queue timestamp: ISO time, or the cases' symbolic "tN", N-1 seconds after t1 (absent: t1). */
    private static Instant instant(JsonNode n) {
        String t = n.asText("t1");
        if (t.matches("t\\d+")) {
            return Instant.EPOCH.plusSeconds(Long.parseLong(t.substring(1)) - 1);
        }
        return Instant.parse(t);
    }

    // ---- inputs ----------------------------------------------------------------------------------

    /** A handle holding the case's namespaces and {@code otherObjects}, as the plugin is created with. */
    public static FakeHandle handle(JsonNode in) {
        FakeHandle handle = new FakeHandle();
        for (JsonNode ns : in.path("namespaces")) {
            Map<String, String> labels = new LinkedHashMap<>();
            ns.path("metadata")
                    .path("labels")
                    .properties()
                    .forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
            handle.setNamespaceLabels(ns.path("metadata").path("name").asText(), labels);
        }
        for (JsonNode o : in.path("otherObjects")) {
            handle.addObject(object(o));
        }
        return handle;
    }

    /** An object of a kind the runner reads: the kinds selectors and listers serve. */
    public static HasMetadata object(JsonNode o) {
        String kind = o.path("kind").asText();
        ObjectKind<?> listed = ObjectKind.listed(kind);
        Class<? extends HasMetadata> type = listed != null
                ? listed.type()
                : switch (kind) {
                    case "Service" -> Service.class;
                    case "ReplicationController" -> ReplicationController.class;
                    case "ReplicaSet" -> ReplicaSet.class;
                    case "StatefulSet" -> StatefulSet.class;
                    case "Pod" -> Pod.class;
                    case "Node" -> Node.class;
                    default ->
                        throw new IllegalArgumentException(
                                "otherObjects: kind " + o.path("kind") + " is not read by the runner");
                };
        HasMetadata obj = JSON.treeToValue(o, type);
        if (obj.getMetadata() == null) {
            obj.setMetadata(new ObjectMeta());
        }
        return obj;
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> args(JsonNode in) {
        JsonNode a = in.path("args");
        return a.isMissingNode() || a.isNull() ? Map.of() : JSON.treeToValue(a, Map.class);
    }

    public static Pod pod(JsonNode n) {
        Pod p = n.isMissingNode() || n.isNull() ? new Pod() : JSON.treeToValue(n, Pod.class);
        PodBuilder b = new PodBuilder(p);
        if (p.getMetadata() == null || p.getMetadata().getName() == null) {
            b.editOrNewMetadata().withName("pod").endMetadata();
        }
        if (p.getSpec() == null) {
            b.withNewSpec().endSpec();
        }
        return b.build();
    }

    public static List<NodeInfo> nodes(JsonNode in) {
        List<JsonNode> raw = new ArrayList<>();
        if (in.has("node")) {
            raw.add(in.get("node"));
        }
        in.path("nodes").forEach(raw::add);
        in.path("candidateNodes").forEach(raw::add);
        in.path("failedNodes").forEach(raw::add);
        List<Pod> existing = new ArrayList<>();
        in.path("existingPods").forEach(p -> existing.add(pod(p)));
        in.path("pods").forEach(p -> existing.add(pod(p)));
        List<NodeInfo> out = new ArrayList<>();
        int uid = 0;
        for (JsonNode n : raw) {
            Node node = JSON.treeToValue(n, Node.class);
            if (node.getMetadata() == null) {
                node.setMetadata(new ObjectMeta());
            }
            if (node.getMetadata().getName() == null) {
                node.getMetadata().setName("");
            }
            NodeInfo info = new NodeInfo(node);
            for (Pod p : existing) {
                // a case with a single "node" places every existing pod on it, as upstream's filter tests do
                if (in.has("node")
                        || node.getMetadata().getName().equals(p.getSpec().getNodeName())) {
                    if (p.getMetadata().getUid() == null) {
                        p.getMetadata().setUid("existing-" + uid++);
                    }
                    info.addPod(PodInfo.of(p));
                }
            }
            out.add(info);
        }
        imageStates(out);
        return out;
    }

    /** Image states as the cluster cache keeps them: per node, by normalized name, with the count of nodes holding each. */
    private static void imageStates(List<NodeInfo> nodes) {
        Map<String, Integer> counts = new HashMap<>();
        List<Map<String, Long>> perNode = new ArrayList<>();
        for (NodeInfo n : nodes) {
            Map<String, Long> sizes = new HashMap<>();
            if (n.node().getStatus() != null && n.node().getStatus().getImages() != null) {
                for (ContainerImage image : n.node().getStatus().getImages()) {
                    for (String name : image.getNames() == null ? List.<String>of() : image.getNames()) {
                        sizes.put(
                                ImageStateSummary.normalizedName(name),
                                image.getSizeBytes() == null ? 0 : image.getSizeBytes());
                    }
                }
            }
            sizes.keySet().forEach(k -> counts.merge(k, 1, Integer::sum));
            perNode.add(sizes);
        }
        for (int i = 0; i < nodes.size(); i++) {
            Map<String, ImageStateSummary> states = new HashMap<>();
            perNode.get(i).forEach((k, size) -> states.put(k, new ImageStateSummary(size, counts.get(k))));
            nodes.get(i).setImageStates(states);
        }
    }

    // ---- comparisons -----------------------------------------------------------------------------

    public static Code codeOf(JsonNode status) {
        String c = status.path("code").asText("Success");
        return Code.valueOf(c.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase());
    }

    /** The result's node set is {@code names}; all nodes when {@code names} is null or missing. */
    static void assertPreFilterNodes(JsonNode names, PreFilterResult r) {
        if (names.isMissingNode() || names.isNull()) {
            Check.isTrue(r.allNodes(), "PreFilter result should be all nodes, was " + r.nodeNames());
        } else {
            TreeSet<String> expected = new TreeSet<>();
            names.forEach(n -> expected.add(n.asText()));
            Check.equal(expected, r.nodeNames(), "PreFilter result nodes");
        }
    }

    public static void assertStatus(JsonNode want, Status actual, String point) {
        Status st = actual == null ? Status.SUCCESS : actual;
        Check.equal(codeOf(want), st.code(), point + " code; status " + st);
        if (want.has("reasons")) {
            List<String> reasons = new ArrayList<>();
            want.get("reasons").forEach(r -> reasons.add(r.asText()));
            Check.equal(reasons, st.reasons(), point + " reasons");
        }
        if (want.has("message")) {
            Check.equal(want.get("message").asText(), st.message(), point + " message");
        }
        if (want.has("messageContains")) {
            Check.isTrue(
                    st.message().contains(want.get("messageContains").asText()), point + " message: " + st.message());
        }
        if (want.has("errorMessage")) {
            Check.isTrue(
                    st.message().contains(want.get("errorMessage").asText()),
                    point + " error message: " + st.message());
        }
    }

    private static Map<String, Long> expectedScores(JsonNode scores) {
        Map<String, Long> m = new LinkedHashMap<>();
        scores.properties().forEach(e -> m.put(e.getKey(), e.getValue().asLong()));
        return m;
    }

    private static Map<String, Long> actual(NodeScores s) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < s.size(); i++) {
            m.put(s.nodeName(i), s.score(i));
        }
        return m;
    }
}
