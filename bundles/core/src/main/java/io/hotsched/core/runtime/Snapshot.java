package io.hotsched.core.runtime;

import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The nodes a scheduling attempt works on. The cache brings it up to date at the start of each
 * attempt, copying only the nodes that changed since the last one (upstream's incremental
 * snapshot); during an attempt it does not change. Node order is by name, stable between
 * attempts, so the rotating start index of Filter visits every node in turn.
 */
public final class Snapshot implements NodeInfoLister {

    private NodeInfo[] nodes = new NodeInfo[0];
    private Map<String, Integer> index = Map.of();
    private long generation = -1;
    private long imageVersion = -1;
    /** Indices of the nodes with pods that have affinity terms / required anti-affinity terms, kept up to date per node. */
    private final BitSet withAffinity = new BitSet();
    private final BitSet withAntiAffinity = new BitSet();
    private List<NodeInfo> affinityList;
    private List<NodeInfo> antiAffinityList;
    private final List<NodeInfo> view = new AbstractList<>() {
        @Override
        public NodeInfo get(int i) {
            return nodes[i];
        }

        @Override
        public int size() {
            return nodes.length;
        }
    };

    public Snapshot() {
    }

    /** A fixed snapshot of these nodes (tests, dry runs). */
    public Snapshot(List<NodeInfo> nodeList) {
        rebuild(nodeList, 0);
    }

    @Override
    public List<NodeInfo> list() {
        return view;
    }

    @Override
    public NodeInfo get(String name) {
        Integer i = index.get(name);
        return i == null ? null : nodes[i];
    }

    @Override
    public int size() {
        return nodes.length;
    }

    /** The cache generation this snapshot reflects. */
    public long generation() {
        return generation;
    }

    /** Replaces every node (the set of nodes changed). */
    public void rebuild(List<NodeInfo> nodeList, long gen) {
        NodeInfo[] n = nodeList.toArray(NodeInfo[]::new);
        Map<String, Integer> idx = new HashMap<>(n.length * 2);
        for (int i = 0; i < n.length; i++) {
            idx.put(n[i].name(), i);
        }
        this.nodes = n;
        this.index = idx;
        this.generation = gen;
        withAffinity.clear();
        withAntiAffinity.clear();
        for (int i = 0; i < n.length; i++) {
            mark(i, n[i]);
        }
        affinityList = null;
        antiAffinityList = null;
    }

    private void mark(int i, NodeInfo n) {
        withAffinity.set(i, !n.podsWithAffinity().isEmpty());
        withAntiAffinity.set(i, !n.podsWithRequiredAntiAffinity().isEmpty());
    }

    @Override
    public List<NodeInfo> havePodsWithAffinityList() {
        List<NodeInfo> l = affinityList;
        if (l == null) {
            l = affinityList = collect(withAffinity);
        }
        return l;
    }

    @Override
    public List<NodeInfo> havePodsWithRequiredAntiAffinityList() {
        List<NodeInfo> l = antiAffinityList;
        if (l == null) {
            l = antiAffinityList = collect(withAntiAffinity);
        }
        return l;
    }

    private List<NodeInfo> collect(BitSet bits) {
        List<NodeInfo> out = new ArrayList<>(bits.cardinality());
        for (int i = bits.nextSetBit(0); i >= 0; i = bits.nextSetBit(i + 1)) {
            out.add(nodes[i]);
        }
        return List.copyOf(out);
    }

    /** Replaces one node with a fresh copy (it changed, the set did not). */
    public void replace(NodeInfo node, long gen) {
        Integer i = index.get(node.name());
        if (i == null) {
            throw new IllegalArgumentException("node " + node.name() + " is not in the snapshot");
        }
        nodes[i] = node;
        this.generation = Math.max(this.generation, gen);
        // a list holding the node's old copy, or one it joins or leaves, is stale
        if (withAffinity.get(i) || !node.podsWithAffinity().isEmpty()) {
            affinityList = null;
        }
        if (withAntiAffinity.get(i) || !node.podsWithRequiredAntiAffinity().isEmpty()) {
            antiAffinityList = null;
        }
        mark(i, node);
    }

    public void setGeneration(long gen) {
        this.generation = gen;
    }

    /** The version of the cluster-wide image counts this snapshot's image states reflect. */
    public long imageVersion() {
        return imageVersion;
    }

    public void setImageVersion(long v) {
        this.imageVersion = v;
    }
}
