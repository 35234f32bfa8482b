package io.hotsched.core.support;

import io.hotsched.api.framework.BindPlugin;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.QueueSortPlugin;
import io.hotsched.api.framework.QueuedPodInfo;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;
import io.hotsched.core.registry.Registration;
import java.util.concurrent.atomic.AtomicLong;
import org.osgi.framework.Version;

/** Small plugins for core tests: a queue sort, a cpu fit filter and scorer, a binder. */
public final class TestPlugins {

    private static final AtomicLong IDS = new AtomicLong(1000);

    private TestPlugins() {
    }

    public static Registration registration(String name, PluginFactory f, String version) {
        return new Registration(name, f, "test.bundle." + name, Version.parseVersion(version), IDS.incrementAndGet());
    }

    /** Higher priority first, then FIFO. */
    public static final class Sort implements QueueSortPlugin {
        @Override
        public String name() {
            return "PrioritySort";
        }

        @Override
        public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
            if (a.pod().priority() != b.pod().priority()) {
                return a.pod().priority() > b.pod().priority();
            }
            return a.timestamp().isBefore(b.timestamp());
        }
    }

    /** Rejects nodes without enough free cpu; scores the emptiest node highest. */
    public static final class CpuFit implements FilterPlugin, ScorePlugin {
        @Override
        public String name() {
            return "NodeResourcesFit";
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            long free = node.allocatable().milliCpu() - node.requested().milliCpu();
            if (pod.requests().milliCpu() > free) {
                return Status.unschedulable("Insufficient cpu");
            }
            if (node.pods().size() + 1 > node.allocatable().allowedPods()) {
                return Status.unschedulable("Too many pods");
            }
            return Status.SUCCESS;
        }

        @Override
        public long score(CycleState state, PodInfo pod, NodeInfo node) {
            long alloc = node.allocatable().milliCpu();
            long req = node.nonZeroRequested().milliCpu() + pod.nonZeroRequests().milliCpu();
            return alloc == 0 || req > alloc ? 0 : (alloc - req) * 100 / alloc;
        }
    }

    /** Binds through the cluster client, as DefaultBinder does. */
    public static final class Binder implements BindPlugin {
        private final Handle handle;

        public Binder(Handle handle) {
            this.handle = handle;
        }

        @Override
        public String name() {
            return "DefaultBinder";
        }

        @Override
        public Status bind(CycleState state, PodInfo pod, String nodeName) {
            try {
                handle.cluster().bind(pod, nodeName);
                return Status.SUCCESS;
            } catch (RuntimeException e) {
                return Status.error(e);
            }
        }
    }

    public static PluginFactory factory(java.util.function.Function<Handle, Plugin> create) {
        return (args, handle) -> create.apply(handle);
    }
}
