package io.hotsched.conformance.deviceshare;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.LabelSelector;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.plugins.deviceshare.AllocationAnnotation;
import io.hotsched.plugins.deviceshare.Args;
import io.hotsched.plugins.deviceshare.DefaultAllocator;
import io.hotsched.plugins.deviceshare.DeviceEntry;
import io.hotsched.plugins.deviceshare.DeviceRequestSplit;
import io.hotsched.plugins.deviceshare.DeviceRequests;
import io.hotsched.plugins.deviceshare.DeviceScorer;
import io.hotsched.plugins.deviceshare.DeviceShare;
import io.hotsched.plugins.deviceshare.DeviceShareArgs;
import io.hotsched.plugins.deviceshare.GpuMemoryFill;
import io.hotsched.plugins.deviceshare.GpuRequirements;
import io.hotsched.plugins.deviceshare.GpuSplit;
import io.hotsched.plugins.deviceshare.NodeDevices;
import io.hotsched.plugins.deviceshare.NodeScore;
import io.hotsched.plugins.deviceshare.PreFilterState;
import io.hotsched.plugins.deviceshare.Preemptible;
import io.hotsched.testing.FakeHandle;
import io.hotsched.testing.Snapshots;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs Koordinator's DeviceShare cases (conformance/koordinator/deviceshare.json) through the
 * plugin: PreFilter, Filter, Score, Reserve and PreBind with the state upstream's tests inject,
 * and the request validation, conversion, split, scoring and allocation steps on their own, as
 * upstream's unit tests do.
 *
 * <p>The steps it calls are public classes of the plugin's package, which the bundle does not
 * export: this package of its own keeps the conformance command's jar free of split packages.
 */
public final class DeviceShareCases {

    private DeviceShareCases() {}

    /** Runs one case; a difference is thrown as an AssertionError naming what differed. */
    public static void run(JsonNode c) throws Exception {
        JsonNode in = c.path("input");
        JsonNode want = c.path("expected");
        switch (c.path("kind").asText()) {
            case "validateRequest" -> {
                Map<String, Map<String, BigDecimal>> parts = DeviceRequests.byType(amounts(in.path("podRequest")));
                try {
                    Set<String> names = DeviceRequests.validate(
                            parts.isEmpty()
                                    ? Map.of()
                                    : parts.values().iterator().next());
                    assertTrue(
                            want.path("valid").asBoolean(),
                            "expected refused: " + want.path("errorMessage").asText());
                    assertEquals(strings(want.path("combination")), DeviceRequests.flags(names));
                    assertEquals(strings(want.path("combinationResources")), new ArrayList<>(names));
                } catch (DeviceRequests.Invalid e) {
                    assertTrue(!want.path("valid").asBoolean(true), "expected valid, refused: " + e.getMessage());
                    String expected = want.path("errorMessage").asText();
                    if (want.path("errorNameOrderUnspecified").asBoolean(false)) {
                        assertEquals(names(expected), names(e.getMessage()));
                    } else {
                        assertEquals(expected, e.getMessage());
                    }
                }
            }
            case "convertRequest" -> {
                JsonNode req = in.path("podRequest");
                Map<String, BigDecimal> converted = req.isNull() ? null : DeviceRequests.normalize(amounts(req));
                assertEquals(want.path("converted").isNull() ? null : amounts(want.path("converted")), converted);
            }
            case "gpuRequestSplit" -> {
                GpuSplit s = GpuSplit.of(amounts(in.path("gpuRequests")));
                assertEquals(amounts(want.path("requestsPerGPU")), s.perGpu());
                assertEquals(want.path("count").asInt(), s.count());
                assertEquals(want.path("shared").asBoolean(), s.shared());
            }
            case "memoryConversion" -> {
                if (!in.path("direction").asText().equals("ratioToBytes")) {
                    throw new AssertionError("direction " + in.path("direction"));
                }
                assertEquals(
                        amount(want.path("bytes").asText()),
                        GpuSplit.ratioToBytes(
                                amount(in.path("ratio").asText()),
                                amount(in.path("totalMemory").asText())));
            }
            case "scoreDevice" -> {
                JsonNode strategy = in.path("args").path("scoringStrategy");
                Map<String, Long> weights = new LinkedHashMap<>();
                strategy.path("resources")
                        .forEach(r -> weights.put(
                                r.path("name").asText(), r.path("weight").asLong()));
                DeviceScorer scorer = new DeviceScorer(strategy.path("type").asText(), weights);
                assertEquals(
                        want.path("score").asLong(),
                        scorer.score(amounts(in.path("request")), amounts(in.path("total")), amounts(in.path("free"))));
            }
            case "normalizeScore" -> {
                long[] scores = new long[in.path("scores").size()];
                for (int i = 0; i < scores.length; i++) {
                    scores[i] = in.path("scores").get(i).path("score").asLong();
                }
                DeviceScorer.normalize(scores);
                for (int i = 0; i < scores.length; i++) {
                    assertEquals(want.path("scores").get(i).path("score").asLong(), scores[i]);
                }
            }
            case "fillGPUTotalMem" -> {
                List<GpuMemoryFill.Allocation> gpus =
                        allocations(in.path("allocations").path("gpu"));
                Map<Integer, Map<String, BigDecimal>> totals = new TreeMap<>();
                in.path("deviceTotal")
                        .path("gpu")
                        .properties()
                        .forEach(e -> totals.put(Integer.parseInt(e.getKey()), amounts(e.getValue())));
                try {
                    List<GpuMemoryFill.Allocation> filled = GpuMemoryFill.fill(gpus, totals);
                    assertTrue(!want.path("error").asBoolean(), "expected an error");
                    assertEquals(allocations(want.path("allocations").path("gpu")), filled);
                } catch (DeviceRequests.Invalid e) {
                    assertTrue(want.path("error").asBoolean(), "unexpected error " + e.getMessage());
                    assertEquals(want.path("errorMessage").asText(), e.getMessage());
                }
            }
            case "parseGPURequirements" -> {
                Pod pod = JsonMapper.builder().build().treeToValue(in.path("pod"), Pod.class);
                try {
                    GpuRequirements r = GpuRequirements.of(
                            pod, amounts(in.path("podDeviceRequests").path("gpu")));
                    assertTrue(!want.path("error").asBoolean(), "expected an error");
                    JsonNode w = want.path("gpuRequirements");
                    if (w.isNull()) {
                        assertEquals(null, r);
                    } else {
                        assertEquals(w.path("numberOfGPUs").asInt(), r.numberOfGPUs());
                        assertEquals(amounts(w.path("requestsPerGPU")), r.requestsPerGPU());
                        assertEquals(w.path("gpuShared").asBoolean(), r.gpuShared());
                        assertEquals(w.path("honorGPUPartition").asBoolean(), r.honorGPUPartition());
                        assertEquals(w.path("restrictedGPUPartition").asBoolean(), r.restrictedGPUPartition());
                        assertEquals(
                                w.has("ringBusBandwidth")
                                        ? amount(w.path("ringBusBandwidth").asText())
                                        : null,
                                r.ringBusBandwidth() == null
                                        ? null
                                        : new BigDecimal(r.ringBusBandwidth()
                                                .stripTrailingZeros()
                                                .toPlainString()));
                    }
                } catch (DeviceRequests.Invalid e) {
                    assertTrue(want.path("error").asBoolean(), "unexpected error " + e.getMessage());
                }
            }
            case "allocate" -> {
                NodeDevices node = new NodeDevices(devices(in.path("device")), used(in.path("deviceUsed")));
                Map<String, Map<Integer, Map<String, BigDecimal>>> preemptible = used(in.path("preemptibleDevices"));
                GpuSplit split =
                        GpuSplit.of(amounts(in.path("podDeviceRequests").path("gpu")));
                JsonNode sc = in.path("scorer");
                DeviceScorer scorer = null;
                if (!sc.isNull() && !sc.isMissingNode()) {
                    Map<String, Long> weights = new LinkedHashMap<>();
                    sc.path("resources")
                            .forEach(r -> weights.put(
                                    r.path("name").asText(), r.path("weight").asLong()));
                    scorer = new DeviceScorer(sc.path("type").asText(), weights);
                }
                DefaultAllocator.Result r = DefaultAllocator.allocate(
                        node, "gpu", split.perGpu(), split.count(), scorer, preemptible.get("gpu"));
                assertEquals(want.path("status").path("code").asText(), code(r.status()));
                if (want.path("status").has("reasons")) {
                    assertEquals(
                            strings(want.path("status").path("reasons")),
                            r.status().reasons());
                }
                if (want.path("allocations").isNull()) {
                    assertEquals(null, r.allocations());
                } else {
                    Map<Integer, Map<String, BigDecimal>> totals = new TreeMap<>();
                    node.devices("gpu").forEach(d -> totals.put(d.minor(), d.resources()));
                    assertEquals(
                            allocations(want.path("allocations").path("gpu")),
                            GpuMemoryFill.fill(r.allocations(), totals));
                }
            }
            case "deviceRequestSplit" -> {
                String type = in.path("deviceType").asText();
                Map<String, BigDecimal> req = amounts(in.path(type + "Request"));
                Map.Entry<String, BigDecimal> only = req.entrySet().iterator().next();
                JsonNode h = in.path("hint");
                DeviceRequestSplit.Hint hint = h.isMissingNode()
                        ? null
                        : new DeviceRequestSplit.Hint(
                                h.has("selector")
                                        ? LabelSelector.of(JsonMapper.builder()
                                                .build()
                                                .treeToValue(
                                                        h.path("selector"),
                                                        io.fabric8.kubernetes.api.model.LabelSelector.class))
                                        : null,
                                h.path("allocateStrategy").asText(""),
                                h.path("exclusivePolicy").asText(""),
                                h.path("requiredTopologyScope").asText(""));
                DeviceRequestSplit s =
                        DeviceRequestSplit.of(type, only.getKey(), only.getValue(), hint, devices(in.path("device")));
                assertEquals(
                        want.path("success").asBoolean(),
                        s.status().isSuccess(),
                        s.status().toString());
                assertEquals(want.path("desiredCount").asInt(), s.count());
                assertEquals(
                        want.path("requestsPerDevice").isNull() ? null : amounts(want.path("requestsPerDevice")),
                        s.perDevice() == null ? null : new TreeMap<>(s.perDevice()));
                if (want.has("status")) {
                    assertEquals(want.path("status").path("code").asText(), code(s.status()));
                    assertEquals(
                            strings(want.path("status").path("reasons")),
                            s.status().reasons());
                }
            }
            case "preFilter" -> {
                Pod pod = JsonMapper.builder().build().treeToValue(in.path("pod"), Pod.class);
                if (pod.getMetadata() == null) {
                    pod.setMetadata(new ObjectMeta());
                }
                PreFilterState.Outcome o = PreFilterState.of(PodInfo.of(pod));
                assertEquals(want.path("status").path("code").asText(), code(o.status()));
                if (want.path("status").has("reasons")) {
                    assertEquals(
                            strings(want.path("status").path("reasons")),
                            o.status().reasons());
                }
                JsonNode w = want.path("state");
                if (!w.isMissingNode()) {
                    assertEquals(w.path("skip").asBoolean(), o.state().skip());
                    assertEquals(
                            w.path("podFitsSecondaryDeviceWellPlanned").asBoolean(),
                            o.state().podFitsSecondaryDeviceWellPlanned());
                    if (w.has("podDeviceRequests")) {
                        Map<String, Map<String, BigDecimal>> expected = new TreeMap<>();
                        w.path("podDeviceRequests")
                                .properties()
                                .forEach(e -> expected.put(e.getKey(), amounts(e.getValue())));
                        assertEquals(expected, new TreeMap<>(o.state().podDeviceRequests()));
                    }
                    JsonNode g = w.path("gpuRequirements");
                    if (g.isMissingNode()) {
                        assertEquals(null, o.state().gpuRequirements());
                    } else {
                        assertEquals(
                                g.path("numberOfGPUs").asInt(),
                                o.state().gpuRequirements().numberOfGPUs());
                        assertEquals(
                                amounts(g.path("requestsPerGPU")),
                                o.state().gpuRequirements().requestsPerGPU());
                        assertEquals(
                                g.path("gpuShared").asBoolean(),
                                o.state().gpuRequirements().gpuShared());
                    }
                }
            }
            case "filter" -> {
                FakeHandle handle = handleWithDevice(in);
                JsonMapper json = JsonMapper.builder().build();
                NodeInfo info = nodeWithUsed(in);
                Pod pod = json.treeToValue(in.path("pod"), Pod.class);
                if (in.has("schedulingHint")) {
                    Map<String, Object> ext = new LinkedHashMap<>();
                    in.path("schedulingHint").path("extensions").forEach(x -> ext.put(x.asText(), Map.of()));
                    pod.getMetadata()
                            .getAnnotations()
                            .put(
                                    DeviceShare.HINT_ANNOTATIONS.get(0),
                                    json.writeValueAsString(Map.of("extensions", ext)));
                }
                DeviceShare plugin = new DeviceShare(handle, DeviceShareArgs.DEFAULT);
                CycleState state = new CycleState();
                PodInfo podInfo = PodInfo.of(pod);
                if (in.path("preFilterRan").asBoolean(true)) {
                    plugin.preFilter(state, podInfo, null);
                }
                Status st = plugin.filter(state, podInfo, info);
                assertEquals(want.path("status").path("code").asText(), code(st), st.toString());
                if (want.path("status").has("reasons")) {
                    for (JsonNode r : want.path("status").path("reasons")) {
                        assertTrue(st.message().contains(r.asText()), st.message() + " contains " + r.asText());
                    }
                }
                if (want.path("status").has("reasonOneOf")) {
                    assertTrue(strings(want.path("status").path("reasonOneOf")).contains(st.message()), st.message());
                }
            }
            case "score" -> {
                FakeHandle handle = handleWithDevice(in);
                NodeInfo info = nodeWithUsed(in);
                DeviceShare plugin = new DeviceShare(handle, args(in));
                CycleState state = injectedState(in, info.name());
                PodInfo podInfo = PodInfo.of(emptyPod());
                if (!in.path("preFilterRan").asBoolean(true)) {
                    IllegalStateException e = null;
                    try {
                        plugin.score(state, podInfo, info);
                    } catch (IllegalStateException thrown) {
                        e = thrown;
                    }
                    assertTrue(e != null, "Score without PreFilter's state throws");
                    assertEquals("Error", want.path("status").path("code").asText());
                    assertTrue(
                            e.getMessage()
                                    .contains(want.path("status")
                                            .path("reasons")
                                            .get(0)
                                            .asText()),
                            e.getMessage());
                    return;
                }
                PreFilterState s = state.read(DeviceShare.STATE).orElseThrow();
                Preemptible p = state.read(DeviceShare.PREEMPTIBLE).orElse(new Preemptible());
                NodeScore.Result r = NodeScore.score(s, plugin.devices(info), args(in).scorer(), p.on(info.name()));
                assertEquals(
                        want.path("status").path("code").asText(),
                        code(r.status()),
                        r.status().toString());
                if (want.path("status").has("reasons")) {
                    assertEquals(
                            strings(want.path("status").path("reasons")),
                            r.status().reasons());
                }
                assertEquals(want.path("score").asLong(), r.score());
                // the plugin gives a node it cannot score 0 (see the class's comment) and otherwise the same
                assertEquals(r.status().isSuccess() ? r.score() : 0, plugin.score(state, podInfo, info));
            }
            case "reserve" -> {
                FakeHandle handle = handleWithDevice(in);
                NodeInfo info = nodeWithUsed(in);
                handle.setSnapshot(Snapshots.of(info));
                DeviceShare plugin = new DeviceShare(handle, args(in));
                CycleState state = injectedState(in, info.name());
                PodInfo podInfo = PodInfo.of(emptyPod());
                Status st = plugin.reserve(state, podInfo, info.name());
                assertEquals(want.path("status").path("code").asText(), code(st), st.toString());
                for (JsonNode r : want.path("status").path("reasons")) {
                    assertTrue(st.message().contains(r.asText()), st.message() + " contains " + r.asText());
                }
                if (want.path("status").has("reasonOneOf")) {
                    assertTrue(strings(want.path("status").path("reasonOneOf")).contains(st.message()), st.message());
                }
                Map<String, List<GpuMemoryFill.Allocation>> got = state.read(DeviceShare.ALLOCATED)
                        .map(DeviceShare.Allocated::allocations)
                        .orElse(Map.of());
                Map<String, List<GpuMemoryFill.Allocation>> expected = new TreeMap<>();
                want.path("allocations").properties().forEach(e -> expected.put(e.getKey(), allocations(e.getValue())));
                assertEquals(expected, new TreeMap<>(got));
                if (!expected.isEmpty()) {
                    // what was reserved counts on the node (the pod assumed there) until the pod's annotation shows
                    NodeInfo assumed = info.copy();
                    assumed.addPod(podInfo);
                    NodeDevices after = plugin.devices(assumed);
                    expected.forEach((type, list) -> list.forEach(a -> a.resources()
                            .forEach((r, v) -> assertEquals(
                                    0,
                                    v.compareTo(after.used(type, a.minor())
                                            .get(r)
                                            .subtract(usedBefore(in, type, a.minor(), r)))))));
                    plugin.unreserve(state, podInfo, info.name());
                    assertTrue(state.read(DeviceShare.ALLOCATED).isEmpty(), "Unreserve clears the allocation");
                    assertEquals(
                            new TreeMap<>(plugin.devices(info)
                                    .used(expected.keySet().iterator().next(), 0)),
                            new TreeMap<>(plugin.devices(assumed)
                                    .used(expected.keySet().iterator().next(), 0)),
                            "unreserved");
                }
            }
            case "preBind" -> {
                JsonMapper json = JsonMapper.builder().build();
                FakeHandle handle = handleWithDevice(in);
                Instant now = Instant.parse("2026-11-29T12:00:00.123456789Z");
                handle.setClock(Clock.fixed(now, ZoneOffset.UTC));
                Map<String, Boolean> gates = new TreeMap<>();
                in.path("featureGates")
                        .properties()
                        .forEach(e -> gates.put(e.getKey(), e.getValue().asBoolean()));
                Args a = new Args();
                a.featureGates = gates;
                DeviceShare plugin = new DeviceShare(handle, DeviceShareArgs.defaulted(a));
                Pod pod = json.treeToValue(in.path("pod"), Pod.class);
                if (pod.getMetadata() == null) {
                    pod.setMetadata(new ObjectMeta());
                }
                Pod before = new PodBuilder(pod).build();
                CycleState state = new CycleState();
                if (in.path("preFilterRan").asBoolean(true)) {
                    state.write(
                            DeviceShare.STATE,
                            new PreFilterState(in.path("skip").asBoolean(), Map.of(), null));
                }
                if (in.has("allocationResult")) {
                    Map<String, List<GpuMemoryFill.Allocation>> result = new TreeMap<>();
                    in.path("allocationResult").properties().forEach(e -> {
                        List<GpuMemoryFill.Allocation> l = new ArrayList<>();
                        e.getValue()
                                .forEach(x -> l.add(new GpuMemoryFill.Allocation(
                                        x.path("minor").asInt(),
                                        x.has("resources") ? amounts(x.path("resources")) : null)));
                        result.put(e.getKey(), l);
                    });
                    state.write(
                            DeviceShare.ALLOCATED,
                            new DeviceShare.Allocated(in.path("nodeName").asText(), result));
                }
                PodInfo podInfo = PodInfo.of(pod);
                Status st = plugin.preBind(state, podInfo, in.path("nodeName").asText());
                assertEquals(want.path("status").path("code").asText(), code(st), st.toString());
                for (JsonNode r : want.path("status").path("reasons")) {
                    assertTrue(st.message().contains(r.asText()), st.message() + " contains " + r.asText());
                }
                Map<String, String> annotations = new TreeMap<>();
                want.path("podAnnotations")
                        .properties()
                        .forEach(e -> annotations.put(
                                e.getKey(),
                                e.getValue().asText().equals("<now as unix nanoseconds>")
                                        ? Long.toString(now.getEpochSecond() * 1_000_000_000L + now.getNano())
                                        : e.getValue().asText()));
                Map<String, String> labels = new TreeMap<>();
                want.path("podLabels")
                        .properties()
                        .forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
                Pod after = podInfo.pod();
                assertEquals(
                        annotations,
                        after.getMetadata().getAnnotations() == null
                                ? Map.of()
                                : new TreeMap<>(after.getMetadata().getAnnotations()));
                assertEquals(
                        labels,
                        after.getMetadata().getLabels() == null
                                ? Map.of()
                                : new TreeMap<>(after.getMetadata().getLabels()));
                after.getMetadata().setAnnotations(before.getMetadata().getAnnotations());
                after.getMetadata().setLabels(before.getMetadata().getLabels());
                assertEquals(before, after, "nothing else changed");
            }
            default -> throw new AssertionError("kind " + c.path("kind") + " is not one DeviceShare has");
        }
    }

    private static FakeHandle handleWithDevice(JsonNode in) throws Exception {
        FakeHandle handle = new FakeHandle();
        if (!in.path("device").isNull() && !in.path("device").isMissingNode()) {
            handle.addObject(
                    JsonMapper.builder().build().treeToValue(in.path("device"), GenericKubernetesResource.class));
        }
        return handle;
    }

    /** The case's node with what is used as pods: one pod per device holding exactly that amount. */
    private static NodeInfo nodeWithUsed(JsonNode in) throws Exception {
        Node node = JsonMapper.builder().build().treeToValue(in.path("node"), Node.class);
        NodeInfo info = new NodeInfo(node);
        int n = 0;
        for (Map.Entry<String, JsonNode> type : in.path("deviceUsed").properties()) {
            for (Map.Entry<String, JsonNode> minor : type.getValue().properties()) {
                String annotation = "{\"" + type.getKey() + "\":[{\"minor\":" + minor.getKey() + ",\"resources\":"
                        + minor.getValue() + "}]}";
                info.addPod(PodInfo.of(new PodBuilder()
                        .withNewMetadata()
                        .withName("used-" + n)
                        .withNamespace("default")
                        .withUid("used-" + n++)
                        .addToAnnotations(AllocationAnnotation.KEY, annotation)
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node.getMetadata().getName())
                        .endSpec()
                        .build()));
            }
        }
        return info;
    }

    private static BigDecimal usedBefore(JsonNode in, String type, int minor, String resource) {
        JsonNode v =
                in.path("deviceUsed").path(type).path(Integer.toString(minor)).path(resource);
        return v.isMissingNode() ? BigDecimal.ZERO : new Quantity(v.asText()).getNumericalAmount();
    }

    private static Pod emptyPod() {
        return new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withNamespace("default")
                .withUid("p-uid")
                .endMetadata()
                .build();
    }

    /** The pre-filter state the upstream test injects: the per-type requests, GPU requirements derived from them, preemptible devices. */
    private static CycleState injectedState(JsonNode in, String nodeName) throws Exception {
        CycleState state = new CycleState();
        if (!in.path("preFilterRan").asBoolean(true)) {
            return state;
        }
        Map<String, Map<String, BigDecimal>> requests = new TreeMap<>();
        in.path("podDeviceRequests").properties().forEach(e -> requests.put(e.getKey(), amounts(e.getValue())));
        GpuRequirements gpu = requests.containsKey("gpu") ? GpuRequirements.of(emptyPod(), requests.get("gpu")) : null;
        state.write(DeviceShare.STATE, new PreFilterState(in.path("skip").asBoolean(false), requests, gpu));
        if (in.has("preemptibleDevices")) {
            Preemptible p = new Preemptible();
            used(in.path("preemptibleDevices"))
                    .forEach((type, minors) -> minors.forEach((minor, amounts) ->
                            p.add(nodeName, Map.of(type, List.of(new GpuMemoryFill.Allocation(minor, amounts))), 1)));
            state.write(DeviceShare.PREEMPTIBLE, p);
        }
        return state;
    }

    private static DeviceShareArgs args(JsonNode in) throws Exception {
        JsonNode a = in.path("args");
        if (a.isMissingNode() || a.isNull()) {
            return DeviceShareArgs.DEFAULT;
        }
        return DeviceShareArgs.defaulted(JsonMapper.builder().build().treeToValue(a, Args.class));
    }

    private static Map<String, BigDecimal> amounts(JsonNode o) {
        Map<String, BigDecimal> m = new TreeMap<>();
        o.properties().forEach(e -> m.put(e.getKey(), amount(e.getValue().asText())));
        return m;
    }

    /** Quantities compared by value, not spelling. */
    private static BigDecimal amount(String q) {
        return new BigDecimal(
                new Quantity(q).getNumericalAmount().stripTrailingZeros().toPlainString());
    }

    @SuppressWarnings("unchecked")
    private static List<DeviceEntry> devices(JsonNode device) {
        if (device.isNull() || device.isMissingNode()) {
            return List.of();
        }
        return DeviceEntry.of(JsonMapper.builder().build().treeToValue(device.path("spec"), Map.class));
    }

    private static Map<String, Map<Integer, Map<String, BigDecimal>>> used(JsonNode byType) {
        Map<String, Map<Integer, Map<String, BigDecimal>>> out = new TreeMap<>();
        byType.properties().forEach(t -> {
            Map<Integer, Map<String, BigDecimal>> minors = new TreeMap<>();
            t.getValue().properties().forEach(m -> minors.put(Integer.parseInt(m.getKey()), amounts(m.getValue())));
            out.put(t.getKey(), minors);
        });
        return out;
    }

    private static String code(Status st) {
        String n = st.code().name();
        StringBuilder b = new StringBuilder();
        for (String part : n.split("_")) {
            b.append(part.charAt(0)).append(part.substring(1).toLowerCase());
        }
        return b.toString();
    }

    private static List<GpuMemoryFill.Allocation> allocations(JsonNode list) {
        List<GpuMemoryFill.Allocation> out = new ArrayList<>();
        list.forEach(a -> out.add(new GpuMemoryFill.Allocation(a.path("minor").asInt(), amounts(a.path("resources")))));
        return out;
    }

    private static List<String> strings(JsonNode a) {
        List<String> l = new ArrayList<>();
        a.forEach(x -> l.add(x.asText()));
        return l;
    }

    private static Set<String> names(String message) {
        int open = message.indexOf('[');
        return new TreeSet<>(
                List.of(message.substring(open + 1, message.length() - 1).split(" ")));
    }

    private static void assertEquals(Object expected, Object actual) {
        assertEquals(expected, actual, "value");
    }

    private static void assertEquals(Object expected, Object actual, String what) {
        if (!Objects.equals(normalize(expected), normalize(actual))) {
            throw new AssertionError(what + ": expected <" + expected + "> but was <" + actual + ">");
        }
    }

    /** Boxed numbers compared by value (an expected long against a computed int). */
    private static Object normalize(Object o) {
        return o instanceof Integer i ? Long.valueOf(i) : o;
    }

    private static void assertTrue(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }
}
