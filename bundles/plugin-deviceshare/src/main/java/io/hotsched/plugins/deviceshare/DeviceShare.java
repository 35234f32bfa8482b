package io.hotsched.plugins.deviceshare;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Koordinator's DeviceShare, being built: PreFilter and Filter so far (see
 * docs/plugin-deviceshare.md). Not registered as a plugin factory until Score, Reserve and
 * PreBind are there, so no profile can enable half of it.
 */
public final class DeviceShare implements PreFilterPlugin, FilterPlugin {

    public static final String NAME = "DeviceShare";
    static final String DEVICE = "Device";
    static final List<String> HINT_ANNOTATIONS = List.of("internal.scheduling.koordinator.sh/scheduling-hint",
            "scheduling.koordinator.sh/scheduling-hint");
    static final StateKey<PreFilterState> STATE = StateKey.of(NAME, PreFilterState.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Handle handle;
    private final List<NodeFilter.Model> unsupportedModels;

    public DeviceShare(Handle handle, List<NodeFilter.Model> unsupportedModels) {
        this.handle = handle;
        this.unsupportedModels = List.copyOf(unsupportedModels);
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
        }
        return o.status().isSuccess() ? PreFilterResult.ALL_NODES : PreFilterResult.of(o.status());
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        PreFilterState s = state.read(STATE).orElse(null);
        if (s == null) {
            return Status.error("reading \"" + NAME + "\" from cycleState: not found");
        }
        if (s.skip()) {
            return Status.SUCCESS;
        }
        return NodeFilter.filter(s, pod.pod(), node.node(), devices(node), unsupportedModels, designated(pod.pod()));
    }

    /** The node's devices with what its pods hold; null when the node has no Device object. */
    NodeDevices devices(NodeInfo node) {
        HasMetadata device = handle.object(DEVICE, null, node.name());
        if (!(device instanceof GenericKubernetesResource g)) {
            return null;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = g.getAdditionalProperties().get("spec") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        Map<String, Map<Integer, Map<String, BigDecimal>>> used = new TreeMap<>();
        for (PodInfo p : node.pods()) {
            Map<String, List<GpuMemoryFill.Allocation>> a = AllocationAnnotation.of(p.pod());
            if (a != null) {
                AllocationAnnotation.addTo(used, a);
            }
        }
        return new NodeDevices(DeviceEntry.of(spec), used);
    }

    /** A designated allocation: the pod's own annotation, honoured when its scheduling hint names DeviceShare. */
    static Map<String, List<GpuMemoryFill.Allocation>> designated(Pod pod) {
        Map<String, String> annotations = pod.getMetadata() == null ? null : pod.getMetadata().getAnnotations();
        if (annotations == null) {
            return null;
        }
        for (String key : HINT_ANNOTATIONS) {
            String hint = annotations.get(key);
            if (hint == null) {
                continue;
            }
            try {
                JsonNode json = JSON.readTree(hint);
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
