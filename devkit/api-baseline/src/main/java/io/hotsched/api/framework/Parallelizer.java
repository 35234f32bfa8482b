package io.hotsched.api.framework;

import java.util.function.IntConsumer;
import org.osgi.annotation.versioning.ProviderType;

/** Runs work in parallel on the framework's worker threads (plugins own no threads). */
@ProviderType
public interface Parallelizer {

    /**
     * Calls {@code piece} for every index in [0, pieces) on up to {@code parallelism} threads and
     * returns when all are done. The first exception thrown by a piece is rethrown here after the
     * others finished.
     */
    void until(int pieces, IntConsumer piece);

    /** The number of worker threads. */
    int parallelism();
}
