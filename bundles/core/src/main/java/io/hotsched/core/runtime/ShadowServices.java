package io.hotsched.core.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.framework.ClusterClient;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.Parallelizer;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.core.metrics.SchedulerMetrics;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.UnaryOperator;

/**
 * What a shadow's framework gets instead of the scheduler's services: the snapshot it is compared
 * on, work on the calling thread (the shadow's thread, whose CPU time is what the shadow costs),
 * a cluster client that refuses every write, the scheduler's watchdog (a call past its time-out gets
 * the shadow's thread replaced, and is a fault when it returns),
 * metrics of its own, so the serving series count serving calls only, and hooks that move no pod
 * and run no background work.
 */
final class ShadowServices {

    private ShadowServices() {}

    static FrameworkServices of(FrameworkServices serving, AtomicReference<NodeInfoLister> view) {
        return of(serving, view, "a plugin version in shadow");
    }

    /** @param who what acts on nothing, as the refused calls' message names it */
    static FrameworkServices of(FrameworkServices serving, AtomicReference<NodeInfoLister> view, String who) {
        return new FrameworkServices(
                SEQUENTIAL,
                new Refusing(who),
                view::get,
                serving.nominatedPods(),
                serving.timer(),
                serving.timeouts(),
                serving.clock(),
                serving.objects(),
                serving.watch(),
                new SchedulerMetrics(),
                (plugin, fault) -> {},
                serving.reservations(),
                // the serving gates, but nothing moved in the queue and no work left behind
                new SchedulerHooks(serving.hooks().features(), pod -> {}, task -> {}));
    }

    /** Every piece on the calling thread, in order; the first exception is rethrown after the rest ran. */
    private static final Parallelizer SEQUENTIAL = new Parallelizer() {
        @Override
        public void until(int pieces, IntConsumer piece) {
            RuntimeException first = null;
            for (int i = 0; i < pieces; i++) {
                try {
                    piece.accept(i);
                } catch (RuntimeException e) {
                    first = first == null ? e : first;
                }
            }
            if (first != null) {
                throw first;
            }
        }

        @Override
        public int parallelism() {
            return 1;
        }
    };

    private record Refusing(String who) implements ClusterClient {
        private UnsupportedOperationException refused(String what) {
            return new UnsupportedOperationException(who + " acts on nothing: " + what + " refused");
        }

        @Override
        public void bind(PodInfo pod, String nodeName) {
            throw refused("bind");
        }

        @Override
        public void patchPod(PodInfo pod, UnaryOperator<Pod> change) {
            throw refused("patchPod");
        }

        @Override
        public void patchPodStatus(PodInfo pod, UnaryOperator<Pod> change) {
            throw refused("patchPodStatus");
        }

        @Override
        public void deletePod(PodInfo pod, String reason) {
            throw refused("deletePod");
        }

        @Override
        public void recordEvent(PodInfo pod, String type, String reason, String message) {
            throw refused("recordEvent");
        }

        @Override
        public <T extends HasMetadata> T update(T object) {
            throw refused("update");
        }

        @Override
        public <T extends HasMetadata> T updateStatus(T object) {
            throw refused("updateStatus");
        }
    }
}
