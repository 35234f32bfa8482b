package io.hotsched.core.scheduler;

import io.hotsched.core.runtime.CallWatch;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the scheduler is live: not held by a plugin call it cannot give up. PreEnqueue and
 * QueueSort run under the scheduling queue's lock, which a new loop thread could not take either;
 * while one of them runs past its time-out, every pod event and every pop waits on it. The
 * watchdog reports such calls here, {@code /livez} and {@code /healthz} then fail and name the call,
 * so that the kubelet's liveness probe restarts the replica and a standby takes the Lease. Thread-safe.
 */
final class Liveness {

    private static final Logger LOG = LoggerFactory.getLogger(Liveness.class);

    /** What holds a thread, as last seen overdue. */
    private record Held(CallWatch.Overdue call, String what) {}

    private final Map<Thread, Held> held = new ConcurrentHashMap<>();

    /** {@code o}, a call under the queue's lock, is past its time-out at {@code now}. */
    void heldBy(CallWatch.Overdue o, long now) {
        Thread t = o.tracker().thread();
        String what = o.stillRunning(now) + ", under the scheduling queue's lock, so no pod is queued or scheduled"
                + " until it returns";
        held.put(t, new Held(o, what));
        o.tracker().onceFor(o, () -> {
            LOG.error(
                    "Plugin {}: {}; /livez fails until it returns (a liveness probe restarts the replica)",
                    o.instance(),
                    what);
            // the entry itself goes when problem() next finds the call ended
            return () -> LOG.info(
                    "Plugin {}: its {} call has returned; /livez answers ok again",
                    o.instance(),
                    o.call().point().label());
        });
    }

    /** Why the scheduler is not live, or null when it is. */
    String problem() {
        // what returned since it was seen overdue holds nothing any more
        held.values().removeIf(h -> !h.call().tracker().stillIn(h.call()));
        for (Held h : held.values()) {
            return h.what();
        }
        return null;
    }
}
