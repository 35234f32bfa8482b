package io.hotsched.plugins.deviceshare;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/** What DeviceShare's PreBind changes on the pod it binds. */
final class PodChanges {

    private PodChanges() {}

    /**
     * The device-allocated annotation; with the DevicePluginAdaption gate also the annotations
     * device plugins read (bind time in unix nanoseconds, the GPU minors) and, for pods isolated
     * by HAMi-core, the label naming the node.
     */
    static Pod preBind(
            Pod pod,
            String annotation,
            String nodeName,
            Map<String, List<GpuMemoryFill.Allocation>> allocations,
            boolean devicePluginAdaption,
            long bindNanos) {
        ObjectMeta meta = pod.getMetadata() == null ? new ObjectMeta() : pod.getMetadata();
        pod.setMetadata(meta);
        Map<String, String> annotations =
                meta.getAnnotations() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(meta.getAnnotations());
        annotations.put(AllocationAnnotation.KEY, annotation);
        if (devicePluginAdaption) {
            annotations.put(DeviceShare.BIND_TIMESTAMP, Long.toString(bindNanos));
            List<GpuMemoryFill.Allocation> gpus = allocations.get(DeviceResources.TYPE_GPU);
            if (gpus != null && !gpus.isEmpty()) {
                StringJoiner minors = new StringJoiner(",");
                gpus.forEach(g -> minors.add(Integer.toString(g.minor())));
                annotations.put(DeviceShare.GPU_MINORS, minors.toString());
            }
            Map<String, String> labels = meta.getLabels();
            if (labels != null && DeviceShare.HAMI_CORE.equals(labels.get(NodeFilter.ISOLATION_PROVIDER))) {
                Map<String, String> l = new LinkedHashMap<>(labels);
                l.put(DeviceShare.HAMI_VGPU_NODE, nodeName);
                meta.setLabels(l);
            }
        }
        meta.setAnnotations(annotations);
        return pod;
    }
}
