package io.hotsched.api.framework;

import java.util.List;

/** One plugin's scores for the feasible nodes of an attempt, by index; a normalizer rewrites them in place. */
public final class NodeScores {

    private final String[] names;
    private final long[] scores;

    public NodeScores(List<NodeInfo> nodes) {
        this.names = new String[nodes.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = nodes.get(i).name();
        }
        this.scores = new long[names.length];
    }

    public int size() {
        return names.length;
    }

    public String nodeName(int i) {
        return names[i];
    }

    public long score(int i) {
        return scores[i];
    }

    public void set(int i, long score) {
        scores[i] = score;
    }

    /** The largest score, or 0 when there are none. */
    public long max() {
        long m = scores.length == 0 ? 0 : Long.MIN_VALUE;
        for (long s : scores) {
            m = Math.max(m, s);
        }
        return m;
    }

    /** The smallest score, or 0 when there are none. */
    public long min() {
        long m = scores.length == 0 ? 0 : Long.MAX_VALUE;
        for (long s : scores) {
            m = Math.min(m, s);
        }
        return m;
    }
}
