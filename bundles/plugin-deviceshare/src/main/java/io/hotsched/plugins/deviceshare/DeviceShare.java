package io.hotsched.plugins.deviceshare;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.ImmutableStateData;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.NodeScores;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreBindPlugin;
import io.hotsched.api.framework.PreFilterExtensions;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.ReservePlugin;
import io.hotsched.api.framework.ScoreExtensions;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.StateDescriber;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Koordinator's DeviceShare: GPUs (whole or shared), RDMA and FPGA devices from each node's
 * Device object, allocated per pod and written to the pod's {@code device-allocated} annotation.
 * What a node's devices hold comes from its pods' annotations, plus the reservations not yet
 * visible in the snapshot: this instance's, and those the other instances (the older version that
 * finishes its pods after an upgrade, other profiles) recorded in the framework's
 * {@link io.hotsched.api.framework.Reservations}, so a freshly installed version starts correct.
 * Each profile gets its own instance (its own reservations in flight). See
 * docs/plugin-deviceshare.md.
 */
public final class DeviceShare
        implements PreFilterPlugin, FilterPlugin, ScorePlugin, ReservePlugin, PreBindPlugin, StateDescriber {

    public static final String NAME = "DeviceShare";
    static final String DEVICE = "Device";
    public static final List<String> HINT_ANNOTATIONS =
            List.of("internal.scheduling.koordinator.sh/scheduling-hint", "scheduling.koordinator.sh/scheduling-hint");
    static final String BIND_TIMESTAMP = "scheduling.koordinator.sh/bind-timestamp";
    static final String GPU_MINORS = "scheduling.koordinator.sh/gpu-minors";
    static final String HAMI_CORE = "HAMi-core";
    static final String HAMI_VGPU_NODE = "hami.io/vgpu-node";
    public static final StateKey<PreFilterState> STATE = StateKey.of(NAME, PreFilterState.class);
    public static final StateKey<Preemptible> PREEMPTIBLE = StateKey.of(NAME + "/preemptible", Preemptible.class);
    public static final StateKey<Allocated> ALLOCATED = StateKey.of(NAME + "/allocated", Allocated.class);
    /** The key of Reserve's record in the framework's Reservations: the allocations' annotation text. */
    static final String RESERVED = "allocated";
    /** Parsed annotations by their text: Filter reads every pod's on every node it checks. */
    private static final int PARSED_LIMIT = 20_000;

    /** Reserve's result for the pod (the node it was made for, the devices per type). */
    public record Allocated(String node, Map<String, List<GpuMemoryFill.Allocation>> allocations)
            implements ImmutableStateData {}

    private final Handle handle;
    private final DeviceShareArgs args;
    private final InFlight inFlight = new InFlight();
    /** What the other instances reserved (a newer version, another profile), read at PreFilter. */
    private volatile Map<String, InFlight.Entry> others = Map.of();

    private final Map<String, Map<String, List<GpuMemoryFill.Allocation>>> parsed = new ConcurrentHashMap<>();

    static DeviceShare create(PluginArgs args, Handle handle) throws InvalidArgsException {
        return new DeviceShare(handle, DeviceShareArgs.defaulted(args.as(Args.class)));
    }

    public DeviceShare(Handle handle, DeviceShareArgs args) {
        this.handle = handle;
        this.args = args;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        PreFilterState.Outcome o = PreFilterState.of(pod);
        if (o.state() != null) {
            state.write(STATE, o.state());
            if (!o.state().skip()) {
                others = InFlight.of(handle.reservations().of(NAME), RESERVED);
            }
        }
        return o.status().isSuccess() ? PreFilterResult.ALL_NODES : PreFilterResult.of(o.status());
    }

    @Override
    public PreFilterExtensions preFilterExtensions() {
        return new PreFilterExtensions() {
            @Override
            public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
                return changePreemptible(state, podToAdd, node, -1);
            }

            @Override
            public Status removePod(CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
                return changePreemptible(state, podToRemove, node, 1);
            }
        };
    }

    private Status changePreemptible(CycleState state, PodInfo other, NodeInfo node, int sign) {
        PreFilterState s = state.read(STATE).orElse(null);
        if (s == null || s.skip()) {
            return Status.SUCCESS;
        }
        Map<String, List<GpuMemoryFill.Allocation>> a = allocations(other, node.name());
        if (a == null) {
            return Status.SUCCESS;
        }
        Preemptible p = state.read(PREEMPTIBLE).orElse(null);
        if (p == null) {
            p = new Preemptible();
            state.write(PREEMPTIBLE, p);
        }
        p.add(node.name(), a, sign);
        return Status.SUCCESS;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        PreFilterState s = state.read(STATE).orElse(null);
        if (s == null) {
            return notFound();
        }
        if (s.skip()) {
            return Status.SUCCESS;
        }
        return NodeFilter.filter(
                s,
                pod.pod(),
                node.node(),
                devices(node),
                args.unsupportedModels(),
                designated(pod.pod()),
                preemptible(state, node));
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        PreFilterState s = state.read(STATE)
                .orElseThrow(() -> new IllegalStateException(notFound().message()));
        // A node Filter let through always has the devices; if the Device object changed since,
        // the node gets 0 here and Reserve refuses it (upstream fails the whole attempt instead).
        NodeScore.Result r = NodeScore.score(s, devices(node), args.scorer(), preemptible(state, node));
        return r.status().isSuccess() ? r.score() : 0;
    }

    @Override
    public ScoreExtensions scoreExtensions() {
        return (state, pod, scores) -> {
            normalize(scores);
            return Status.SUCCESS;
        };
    }

    static void normalize(NodeScores scores) {
        long[] values = new long[scores.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = scores.score(i);
        }
        DeviceScorer.normalize(values);
        for (int i = 0; i < values.length; i++) {
            scores.set(i, values[i]);
        }
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, String nodeName) {
        PreFilterState s = state.read(STATE).orElse(null);
        if (s == null) {
            return notFound();
        }
        if (s.skip()) {
            return Status.SUCCESS;
        }
        NodeInfo node = handle.snapshot().get(nodeName);
        NodeDevices devices = node == null ? null : devices(node);
        Map<String, List<GpuMemoryFill.Allocation>> designated = designated(pod.pod());
        NodeAllocation.Result r = NodeAllocation.allocate(
                s, devices, designated, args.scorer(), node == null ? Map.of() : preemptible(state, node));
        if (r.status().isSuccess() && devices != null) {
            r = NodeAllocation.withMemoryFilled(r, devices);
        }
        if (!r.status().isSuccess()) {
            return r.status();
        }
        if (r.allocations().isEmpty()) {
            return Status.SUCCESS;
        }
        state.write(ALLOCATED, new Allocated(nodeName, r.allocations()));
        inFlight.expire(handle.clock().instant());
        inFlight.put(
                pod.uid(),
                new InFlight.Entry(nodeName, r.allocations(), handle.clock().instant()));
        handle.reservations()
                .record(NAME, pod, Map.of(RESERVED, AllocationAnnotation.write(r.allocations(), Map.of())));
        return Status.SUCCESS;
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String nodeName) {
        inFlight.remove(pod.uid());
        handle.reservations().drop(NAME, pod);
        state.delete(ALLOCATED);
    }

    @Override
    public Status preBind(CycleState state, PodInfo pod, String nodeName) {
        PreFilterState s = state.read(STATE).orElse(null);
        if (s == null) {
            return notFound();
        }
        Allocated a = state.read(ALLOCATED).orElse(null);
        if (s.skip() || a == null) {
            return Status.SUCCESS;
        }
        Map<String, Map<Integer, String>> ids = new TreeMap<>();
        for (DeviceEntry d : deviceEntries(nodeName)) {
            ids.computeIfAbsent(d.type(), t -> new TreeMap<>()).put(d.minor(), d.id());
        }
        String annotation = AllocationAnnotation.write(a.allocations(), ids);
        long bindNanos = bindTimestampNanos();
        handle.cluster()
                .patchPod(
                        pod,
                        p -> PodChanges.preBind(
                                p, annotation, nodeName, a.allocations(), args.devicePluginAdaption(), bindNanos));
        return Status.SUCCESS;
    }

    private long bindTimestampNanos() {
        Instant now = handle.clock().instant();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    @Override
    public Map<String, Object> describeState(String node) {
        return DeviceStateView.of(handle.snapshot(), node, this::devicesOrNull, this::allocations, inFlight);
    }

    private NodeDevices devicesOrNull(NodeInfo node) {
        return devices(node);
    }

    private static Status notFound() {
        return Status.error("reading \"" + NAME + "\" from cycleState: not found");
    }

    private static Map<String, Map<Integer, Map<String, BigDecimal>>> preemptible(CycleState state, NodeInfo node) {
        Preemptible p = state.read(PREEMPTIBLE).orElse(null);
        return p == null ? Map.of() : p.on(node.name());
    }

    private List<DeviceEntry> deviceEntries(String nodeName) {
        HasMetadata device = handle.object(DEVICE, null, nodeName);
        if (!(device instanceof GenericKubernetesResource g)) {
            return null;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> spec =
                g.getAdditionalProperties().get("spec") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        return DeviceEntry.of(spec);
    }

    /** The node's devices with what its pods hold; null when the node has no Device object. */
    public NodeDevices devices(NodeInfo node) {
        List<DeviceEntry> entries = deviceEntries(node.name());
        if (entries == null) {
            return null;
        }
        Map<String, Map<Integer, Map<String, BigDecimal>>> used = new TreeMap<>();
        for (PodInfo p : node.pods()) {
            Map<String, List<GpuMemoryFill.Allocation>> a = allocations(p, node.name());
            if (a != null) {
                AllocationAnnotation.addTo(used, a);
            }
        }
        return new NodeDevices(entries, used);
    }

    /** What the pod holds on {@code node}: its annotation, or what this instance reserved for it meanwhile. */
    private Map<String, List<GpuMemoryFill.Allocation>> allocations(PodInfo p, String node) {
        String text = Annotations.raw(p.pod(), AllocationAnnotation.KEY);
        if (text == null) {
            Map<String, List<GpuMemoryFill.Allocation>> own = inFlight.on(p.uid(), node);
            if (own != null) {
                return own;
            }
            InFlight.Entry other = others.get(p.uid());
            return other != null && other.node().equals(node) ? other.allocations() : null;
        }
        inFlight.remove(p.uid());
        Map<String, List<GpuMemoryFill.Allocation>> a = parsed.get(text);
        if (a == null) {
            a = AllocationAnnotation.of(p.pod());
            if (a == null) {
                return null;
            }
            if (parsed.size() >= PARSED_LIMIT) {
                parsed.clear();
            }
            parsed.put(text, a);
        }
        return a;
    }

    /** A designated allocation: the pod's own annotation, honoured when its scheduling hint names DeviceShare. */
    static Map<String, List<GpuMemoryFill.Allocation>> designated(Pod pod) {
        for (String key : HINT_ANNOTATIONS) {
            String hint = Annotations.raw(pod, key);
            if (hint == null) {
                continue;
            }
            try {
                JsonNode json = Annotations.JSON.readTree(hint);
                if (json.path("extensions").has(NAME)) {
                    return AllocationAnnotation.of(pod);
                }
            } catch (JacksonException e) {
                return null;
            }
        }
        return null;
    }
}
