package io.hotsched.core.runtime;

import java.util.List;

/**
 * The node with the highest total, ties broken by a seed: among the tied nodes, the one whose name
 * hashes lowest with the seed. Each tied node is as likely as any other over seeds, as with
 * upstream's reservoir sampling, but the pick depends only on the seed and the set of tied nodes,
 * not on their order or on nodes that are not tied. So a shadow that sees one node fewer chooses the
 * same node unless it refused that very node: a random tie is no disagreement.
 */
final class TieBreak {

    private TieBreak() {}

    /** The chosen node of {@code scores}; null when it has no nodes. */
    static String pick(ScoreTable scores, long seed) {
        List<String> nodes = scores.nodes();
        String chosen = null;
        long max = Long.MIN_VALUE;
        long best = 0;
        for (int i = 0; i < nodes.size(); i++) {
            long s = scores.total(i);
            if (s < max) {
                continue;
            }
            long h = mix(seed ^ nodes.get(i).hashCode());
            if (s > max || Long.compareUnsigned(h, best) < 0) {
                max = s;
                best = h;
                chosen = nodes.get(i);
            }
        }
        return chosen;
    }

    /** SplitMix64's finalizer: a name's hash spread over 64 bits. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
