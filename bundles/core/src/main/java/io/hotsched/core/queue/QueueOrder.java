package io.hotsched.core.queue;

import io.hotsched.api.framework.QueuedPodInfo;
import java.time.Instant;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.function.BiPredicate;

/**
 * The orders of the scheduling queue's heaps: the active queue by the QueueSort plugin's less
 * (first in, first out until one is set); the unschedulable pods backing off by the end of their
 * backoff and, with backoff windows (pop from backoffQ), pods of one window in the active queue's
 * order; the pods that failed with an error by the end of their backoff alone.
 */
final class QueueOrder {

    private QueueOrder() {}

    static final BiPredicate<QueuedPodInfo, QueuedPodInfo> FIFO =
            (a, b) -> a.timestamp().isBefore(b.timestamp());

    static PriorityQueue<QueuedPod> active(BiPredicate<QueuedPodInfo, QueuedPodInfo> less) {
        return new PriorityQueue<>((a, b) -> {
            QueuedPodInfo x = a.info();
            QueuedPodInfo y = b.info();
            if (less.test(x, y)) {
                return -1;
            }
            return less.test(y, x) ? 1 : 0;
        });
    }

    static PriorityQueue<QueuedPod> backoff(PriorityQueue<QueuedPod> active, boolean windows) {
        if (!windows) {
            return errorBackoff();
        }
        return new PriorityQueue<>(
                Comparator.<QueuedPod, Instant>comparing(p -> p.backoffExpiry).thenComparing(active.comparator()));
    }

    static PriorityQueue<QueuedPod> errorBackoff() {
        return new PriorityQueue<>(Comparator.comparing(p -> p.backoffExpiry));
    }

    /** A heap of {@code order} holding what {@code old} holds. */
    static PriorityQueue<QueuedPod> refilled(PriorityQueue<QueuedPod> order, PriorityQueue<QueuedPod> old) {
        order.addAll(old);
        return order;
    }
}
