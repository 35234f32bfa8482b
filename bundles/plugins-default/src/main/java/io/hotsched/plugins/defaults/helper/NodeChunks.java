package io.hotsched.plugins.defaults.helper;

import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.Parallelizer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Runs a per-node loop of PreFilter or PreScore on the framework's workers: the nodes are split
 * into one contiguous chunk per worker, each chunk sums into its own accumulator, and the caller
 * merges the accumulators (in chunk order, so the result does not depend on timing).
 */
public final class NodeChunks {

    /** Below this many nodes per chunk, handing work to another thread costs more than it saves. */
    static final int MIN_NODES_PER_CHUNK = 256;

    /** Adds what one node contributes to an accumulator. */
    @FunctionalInterface
    public interface Body<T> {
        void accept(T accumulator, NodeInfo node);
    }

    private NodeChunks() {}

    /** The accumulators of the chunks, in node order; one when the nodes are few or there is one worker. */
    public static <T> List<T> run(Parallelizer parallelizer, List<NodeInfo> nodes, Supplier<T> fresh, Body<T> body) {
        int size = nodes.size();
        int chunks = Math.max(1, Math.min(parallelizer.parallelism(), size / MIN_NODES_PER_CHUNK));
        List<T> accumulators = new ArrayList<>(chunks);
        for (int c = 0; c < chunks; c++) {
            accumulators.add(fresh.get());
        }
        if (chunks == 1) {
            T acc = accumulators.get(0);
            for (int i = 0; i < size; i++) {
                body.accept(acc, nodes.get(i));
            }
            return accumulators;
        }
        parallelizer.until(chunks, c -> {
            T acc = accumulators.get(c);
            for (int i = (int) ((long) size * c / chunks), to = (int) ((long) size * (c + 1) / chunks); i < to; i++) {
                body.accept(acc, nodes.get(i));
            }
        });
        return accumulators;
    }
}
