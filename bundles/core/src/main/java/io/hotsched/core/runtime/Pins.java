package io.hotsched.core.runtime;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who holds a framework: every scheduling attempt from its start to the end of its binding cycle,
 * and the profile while the framework serves it. Once retired and released by its last attempt,
 * the framework closes its plugin instances, exactly once. Step 4 of the swap protocol (see
 * {@code io.hotsched.core.scheduler}'s package documentation).
 */
final class Pins {

    private static final Logger LOG = LoggerFactory.getLogger(Pins.class);

    private final List<PluginInstance> instances;
    /** The profile's own pin counts as one until retirement. */
    private final AtomicInteger pins = new AtomicInteger(1);

    private volatile boolean retired;
    private volatile boolean closed;

    Pins(List<PluginInstance> instances) {
        this.instances = instances;
    }

    /** Takes a pin for one attempt; false when the framework is already closed. */
    boolean pin() {
        while (true) {
            int n = pins.get();
            if (n <= 0) {
                return false;
            }
            if (pins.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    void unpin() {
        if (pins.decrementAndGet() == 0) {
            closed = true;
            for (PluginInstance i : instances) {
                RuntimeException e = i.close();
                if (e != null) {
                    LOG.warn("Plugin {} failed to close: {}", i, e.toString());
                }
            }
        }
    }

    /** Attempts pinned right now. */
    int active() {
        return Math.max(0, pins.get() - (retired ? 0 : 1));
    }

    /** Out of service: closes once no attempt holds it. */
    void retire() {
        if (!retired) {
            retired = true;
            unpin();
        }
    }

    boolean retired() {
        return retired;
    }

    boolean closed() {
        return closed;
    }
}
