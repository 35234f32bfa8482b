package io.hotsched.core.runtime;

import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeScores;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The scores of one attempt: per node the weighted total, and each plugin's normalized score. */
public final class ScoreTable {

    private List<String> nodes = List.of();
    private List<String> plugins = List.of();
    private long[][] byPlugin = new long[0][];
    private int[] weights = new int[0];
    private long[] totals = new long[0];

    void fill(List<NodeInfo> scoredNodes, List<String> pluginNames, NodeScores[] scores, int[] pluginWeights) {
        this.nodes = scoredNodes.stream().map(NodeInfo::name).toList();
        this.plugins = List.copyOf(pluginNames);
        this.weights = pluginWeights.clone();
        this.byPlugin = new long[scores.length][];
        this.totals = new long[nodes.size()];
        for (int p = 0; p < scores.length; p++) {
            byPlugin[p] = new long[nodes.size()];
            for (int i = 0; i < nodes.size(); i++) {
                byPlugin[p][i] = scores[p].score(i);
                totals[i] += scores[p].score(i) * pluginWeights[p];
            }
        }
    }

    /** Every node scores 1 (no Score plugin ran). */
    void flat(List<NodeInfo> scoredNodes) {
        this.nodes = scoredNodes.stream().map(NodeInfo::name).toList();
        this.totals = new long[nodes.size()];
        Arrays.fill(totals, 1);
    }

    public List<String> nodes() {
        return nodes;
    }

    public List<String> plugins() {
        return plugins;
    }

    public long total(int node) {
        return totals[node];
    }

    /**
     * Adds an extender's prioritize answer as one more column: {@code raw} per node (0..10, 0
     * where it did not answer), counted {@code factor} (weight × 10) times in the totals.
     */
    public void addExtender(String name, long[] raw, long factor) {
        int p = plugins.size();
        List<String> names = new ArrayList<>(plugins);
        names.add("extender " + name);
        plugins = List.copyOf(names);
        byPlugin = Arrays.copyOf(byPlugin, p + 1);
        byPlugin[p] = raw.clone();
        weights = Arrays.copyOf(weights, p + 1);
        weights[p] = (int) Math.min(Integer.MAX_VALUE, factor);
        for (int i = 0; i < raw.length; i++) {
            totals[i] += raw[i] * factor;
        }
    }

    /** Adds to a node's total (extender scores). */
    public void add(int node, long amount) {
        totals[node] += amount;
    }

    /** The normalized (unweighted) score of plugin {@code p} for node {@code node}. */
    public long score(int plugin, int node) {
        return byPlugin[plugin][node];
    }

    public int weight(int plugin) {
        return weights[plugin];
    }
}
