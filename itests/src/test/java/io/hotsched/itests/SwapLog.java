package io.hotsched.itests;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.osgi.framework.Version;

/**
 * When each version of something that only moves forward (a plugin bundle, a configuration) took
 * effect, to check that no pod created after that was decided by an older one.
 */
final class SwapLog {

    private record Swap(Version version, long tookEffectNanos) {}

    private final List<Swap> swaps = new ArrayList<>();

    /** {@code version} serves from now on. */
    void tookEffect(Version version) {
        swaps.add(new Swap(version, System.nanoTime()));
    }

    int size() {
        return swaps.size();
    }

    /** The pods created after some version took effect that an older version decided. */
    long decidedByOlder(BindingRecorder recorder, PodLoad load, Function<BindingRecorder.Bound, Version> decidedBy) {
        long wrong = 0;
        for (BindingRecorder.Bound b : recorder.inOrder()) {
            long created = load.createdAt(b.pod());
            Version v = decidedBy.apply(b);
            for (Swap s : swaps) {
                if (created > s.tookEffectNanos() && v.compareTo(s.version()) < 0) {
                    wrong++;
                    break;
                }
            }
        }
        return wrong;
    }
}
