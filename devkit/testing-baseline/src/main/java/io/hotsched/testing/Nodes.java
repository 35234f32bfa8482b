package io.hotsched.testing;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds nodes for tests: {@code Nodes.node("n1").cpu("4").memory("8Gi").build()}. */
public final class Nodes extends MetadataBuilder<Nodes> {

    private final Map<String, Quantity> allocatable = new LinkedHashMap<>();
    private final List<Taint> taints = new ArrayList<>();
    private boolean unschedulable;

    private Nodes(String name) {
        super(name);
        allocatable.put("pods", new Quantity("110"));
    }

    public static Nodes node(String name) {
        return new Nodes(name);
    }

    public Nodes cpu(String q) {
        return allocatable("cpu", q);
    }

    public Nodes memory(String q) {
        return allocatable("memory", q);
    }

    public Nodes pods(int n) {
        return allocatable("pods", Integer.toString(n));
    }

    public Nodes allocatable(String resource, String q) {
        allocatable.put(resource, new Quantity(q));
        return this;
    }

    public Nodes taint(String key, String value, String effect) {
        taints.add(new Taint(effect, key, null, value));
        return this;
    }

    public Nodes unschedulable() {
        this.unschedulable = true;
        return this;
    }

    public Node build() {
        Map<String, String> l = new LinkedHashMap<>(labels);
        l.putIfAbsent("kubernetes.io/hostname", name);
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(l)
                .withAnnotations(annotationsOrNull())
                .endMetadata()
                .withNewSpec()
                .withUnschedulable(unschedulable ? Boolean.TRUE : null)
                .withTaints(taints.isEmpty() ? null : new ArrayList<>(taints))
                .endSpec()
                .withNewStatus()
                .withAllocatable(new LinkedHashMap<>(allocatable))
                .withCapacity(new LinkedHashMap<>(allocatable))
                .endStatus()
                .build();
    }

    /** A NodeInfo of this node with {@code pods} on it. */
    public NodeInfo info(PodInfo... pods) {
        NodeInfo n = new NodeInfo(build());
        for (PodInfo p : pods) {
            n.addPod(p);
        }
        return n;
    }
}
