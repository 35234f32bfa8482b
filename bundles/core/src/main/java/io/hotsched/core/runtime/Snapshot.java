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
    /** The nodes with pods that have affinity terms, and those with pods that have required anti-affinity terms. */
    private final NodeSubset withAffinity = new NodeSubset();

    private final NodeSubset withAntiAffinity = new NodeSubset();
    /** How many pods of the snapshot use each claim, by namespace/name: only nodes with claims touch it. */
    private final Map<String, Integer> usedClaims = new HashMap<>();

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

    public Snapshot() {}

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
        usedClaims.clear();
        for (int i = 0; i < n.length; i++) {
            countClaims(n[i], 1);
            withAffinity.set(i, !n[i].podsWithAffinity().isEmpty());
            withAntiAffinity.set(i, !n[i].podsWithRequiredAntiAffinity().isEmpty());
        }
    }

    @Override
    public List<NodeInfo> havePodsWithAffinityList() {
        return withAffinity.list();
    }

    @Override
    public List<NodeInfo> havePodsWithRequiredAntiAffinityList() {
        return withAntiAffinity.list();
    }

    @Override
    public boolean isPVCUsedByPods(String key) {
        return usedClaims.containsKey(key);
    }

    private void countClaims(NodeInfo node, int sign) {
        node.pvcRefCounts()
                .forEach((claim, count) -> usedClaims.merge(claim, sign * count, (a, b) -> a + b == 0 ? null : a + b));
    }

    /** Which of the snapshot's nodes belong (by index), and their list, made when asked after a change. */
    private final class NodeSubset {
        private final BitSet members = new BitSet();
        private List<NodeInfo> list;

        void clear() {
            members.clear();
            list = null;
        }

        /** Node {@code i} (just replaced) belongs or not; a list holding its old copy, or one it joins or leaves, is stale. */
        void set(int i, boolean member) {
            if (member || members.get(i)) {
                list = null;
            }
            members.set(i, member);
        }

        List<NodeInfo> list() {
            List<NodeInfo> l = list;
            if (l == null) {
                List<NodeInfo> out = new ArrayList<>(members.cardinality());
                for (int i = members.nextSetBit(0); i >= 0; i = members.nextSetBit(i + 1)) {
                    out.add(nodes[i]);
                }
                l = list = List.copyOf(out);
            }
            return l;
        }
    }

    /** Replaces one node with a fresh copy (it changed, the set did not). */
    public void replace(NodeInfo node, long gen) {
        Integer i = index.get(node.name());
        if (i == null) {
            throw new IllegalArgumentException("node " + node.name() + " is not in the snapshot");
        }
        countClaims(nodes[i], -1);
        countClaims(node, 1);
        nodes[i] = node;
        this.generation = Math.max(this.generation, gen);
        withAffinity.set(i, !node.podsWithAffinity().isEmpty());
        withAntiAffinity.set(i, !node.podsWithRequiredAntiAffinity().isEmpty());
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
