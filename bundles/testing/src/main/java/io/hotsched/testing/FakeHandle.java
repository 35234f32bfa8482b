package io.hotsched.testing;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.hotsched.api.framework.ClusterClient;
import io.hotsched.api.framework.ClusterException;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.Parallelizer;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.WaitingPod;
import io.hotsched.api.framework.WaitingPods;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.UnaryOperator;

/**
 * A {@link Handle} for plugin unit tests: a settable snapshot, a cluster client that records
 * what the plugin asked for, sequential parallelism unless set, no waiting pods, feature gates
 * set by the test, activations recorded, background tasks held until the test runs them. The framework runners
 * (filter with nominated pods, PreFilter extensions) are not available here: test those through
 * the core.
 */
public final class FakeHandle implements Handle {

    private final Map<String, Map<String, String>> namespaceLabels = new ConcurrentHashMap<>();
    private final Map<String, List<HasMetadata>> objects = new ConcurrentHashMap<>();
    private final InMemoryListers listers = new InMemoryListers();
    private final InMemoryReservations reservations = new InMemoryReservations();

    /**
     * Records binds, patches, deletions, events and updates; binds can be made to fail. An update
     * of an object of a listed kind replaces it in the listers, with the next resourceVersion.
     */
    public static final class FakeCluster implements ClusterClient {
        private final InMemoryListers listers;
        private final List<HasMetadata> updates = new CopyOnWriteArrayList<>();
        private final AtomicLong versions = new AtomicLong(1000);

        FakeCluster(InMemoryListers listers) {
            this.listers = listers;
        }

        @Override
        public <T extends HasMetadata> T update(T object) {
            T stored = copy(object);
            stored.getMetadata().setResourceVersion(String.valueOf(versions.incrementAndGet()));
            updates.add(stored);
            if (InMemoryListers.listed(stored)) {
                listers.put(stored);
            }
            return stored;
        }

        /** As {@link #update}: the listers hold one object per name, status included. */
        @Override
        public <T extends HasMetadata> T updateStatus(T object) {
            return update(object);
        }

        @SuppressWarnings("unchecked")
        private static <T extends HasMetadata> T copy(T object) {
            if (object instanceof ResourceClaim claim) {
                return (T) new ResourceClaimBuilder(claim).build();
            }
            if (object instanceof PersistentVolume pv) {
                return (T) new PersistentVolumeBuilder(pv).build();
            }
            if (object instanceof PersistentVolumeClaim pvc) {
                return (T) new PersistentVolumeClaimBuilder(pvc).build();
            }
            throw new IllegalArgumentException(
                    "FakeCluster updates PersistentVolumes, their claims and ResourceClaims, not " + object.getKind());
        }

        /** The objects as each update stored them, in order. */
        public List<HasMetadata> updates() {
            return List.copyOf(updates);
        }

        private final List<String> bindings = new CopyOnWriteArrayList<>();
        private final List<String> deleted = new CopyOnWriteArrayList<>();
        private final List<Pod> statusPatches = new CopyOnWriteArrayList<>();
        private final List<String> events = new CopyOnWriteArrayList<>();
        private volatile String bindError;
        private volatile String deleteError;
        private volatile Consumer<PodInfo> beforeDelete = pod -> {};

        /** Every bind from now on fails with {@code message}. */
        public void failBindsWith(String message) {
            this.bindError = message;
        }

        /**
         * Every pod deletion from now on fails with {@code message} (a 500).
         *
         * @since 2.1
         */
        public void failDeletesWith(String message) {
            this.deleteError = message;
        }

        /**
         * Calls {@code hook} with each pod whose deletion is asked for, before the deletion is
         * recorded or fails: a test sees the plugin as it is while the API call is in flight.
         *
         * @since 2.1
         */
        public void beforeDeleting(Consumer<PodInfo> hook) {
            this.beforeDelete = hook;
        }

        @Override
        public void bind(PodInfo pod, String nodeName) {
            if (bindError != null) {
                throw new ClusterException(bindError, 500);
            }
            bindings.add(pod.key() + " -> " + nodeName);
        }

        @Override
        public void patchPod(PodInfo pod, UnaryOperator<Pod> change) {
            change.apply(pod.pod());
        }

        @Override
        public void patchPodStatus(PodInfo pod, UnaryOperator<Pod> change) {
            statusPatches.add(change.apply(new PodBuilder(pod.pod()).build()));
        }

        @Override
        public void deletePod(PodInfo pod, String reason) {
            beforeDelete.accept(pod);
            if (deleteError != null) {
                throw new ClusterException(deleteError, 500);
            }
            deleted.add(pod.key());
        }

        @Override
        public void recordEvent(PodInfo pod, String type, String reason, String message) {
            events.add(pod.key() + " " + type + " " + reason + ": " + message);
        }

        /** "namespace/name -> node" per successful bind. */
        public List<String> bindings() {
            return List.copyOf(bindings);
        }

        public List<String> deleted() {
            return List.copyOf(deleted);
        }

        /** The pods as each status patch left them, in order. */
        public List<Pod> statusPatches() {
            return List.copyOf(statusPatches);
        }

        public List<String> events() {
            return List.copyOf(events);
        }
    }

    private final FakeCluster cluster = new FakeCluster(listers);
    private volatile NodeInfoLister snapshot = Snapshots.of();

    public FakeHandle setSnapshot(NodeInfoLister s) {
        this.snapshot = s;
        return this;
    }

    @Override
    public String profileName() {
        return "default-scheduler";
    }

    @Override
    public NodeInfoLister snapshot() {
        return snapshot;
    }

    /** Sets the labels {@link #namespaceLabels} reports for {@code namespace}. */
    public FakeHandle setNamespaceLabels(String namespace, Map<String, String> labels) {
        namespaceLabels.put(namespace, Map.copyOf(labels));
        return this;
    }

    /**
     * Adds an object {@link #objects} reports for its kind; one of a kind read through listers
     * (PersistentVolumeClaim, StorageClass ...) is in {@link #listers()} too.
     */
    public FakeHandle addObject(HasMetadata object) {
        objects.computeIfAbsent(object.getKind(), k -> new CopyOnWriteArrayList<>())
                .add(object);
        if (InMemoryListers.listed(object)) {
            listers.put(object);
        }
        return this;
    }

    /** The plugins' records, one set for every plugin instance made with this handle. */
    @Override
    public InMemoryReservations reservations() {
        return reservations;
    }

    /** The listers {@link #listers()} reads, to put and remove objects in them directly. */
    @Override
    public InMemoryListers listers() {
        return listers;
    }

    private volatile Clock clock = Clock.systemUTC();

    /** Fixes the time plugins read through {@link #clock()}. */
    public FakeHandle setClock(Clock c) {
        this.clock = c;
        return this;
    }

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public HasMetadata object(String kind, String namespace, String name) {
        for (HasMetadata o : objects.getOrDefault(kind, List.of())) {
            if (name.equals(o.getMetadata().getName())
                    && Objects.equals(namespace, o.getMetadata().getNamespace())) {
                return o;
            }
        }
        return null;
    }

    @Override
    public List<HasMetadata> objects(String kind) {
        return List.copyOf(objects.getOrDefault(kind, List.of()));
    }

    @Override
    public Map<String, String> namespaceLabels(String namespace) {
        return namespaceLabels.getOrDefault(namespace, Map.of());
    }

    @Override
    public FakeCluster cluster() {
        return cluster;
    }

    @Override
    public WaitingPods waitingPods() {
        return new WaitingPods() {
            @Override
            public WaitingPod get(String uid) {
                return null;
            }

            @Override
            public List<WaitingPod> list() {
                return List.of();
            }
        };
    }

    private volatile Parallelizer parallelizer = new Parallelizer() {
        @Override
        public void until(int pieces, IntConsumer piece) {
            for (int i = 0; i < pieces; i++) {
                piece.accept(i);
            }
        }

        @Override
        public int parallelism() {
            return 1;
        }
    };

    /** Replaces the sequential parallelizer (to run plugins' chunked loops on several threads). */
    public FakeHandle setParallelizer(Parallelizer p) {
        this.parallelizer = p;
        return this;
    }

    @Override
    public Parallelizer parallelizer() {
        return parallelizer;
    }

    @Override
    public Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node) {
        throw new UnsupportedOperationException("framework runners are not part of FakeHandle; test through the core");
    }

    @Override
    public Status runPreFilterExtensionAddPod(
            CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
        throw new UnsupportedOperationException("framework runners are not part of FakeHandle; test through the core");
    }

    @Override
    public Status runPreFilterExtensionRemovePod(
            CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
        throw new UnsupportedOperationException("framework runners are not part of FakeHandle; test through the core");
    }

    @Override
    public List<PodInfo> nominatedPodsForNode(String nodeName) {
        return new ArrayList<>();
    }

    private final Map<String, Boolean> features = new ConcurrentHashMap<>();
    private final List<String> activated = new CopyOnWriteArrayList<>();
    private final List<Runnable> background = new CopyOnWriteArrayList<>();

    /**
     * Switches the feature gate {@link #featureEnabled} reports; gates not set are off.
     *
     * @since 2.1
     */
    public FakeHandle setFeature(String gate, boolean on) {
        features.put(gate, on);
        return this;
    }

    @Override
    public boolean featureEnabled(String gate) {
        return features.getOrDefault(gate, false);
    }

    @Override
    public void activate(PodInfo pod) {
        activated.add(pod.key());
    }

    /**
     * The keys of the pods the plugin activated, in order.
     *
     * @since 2.1
     */
    public List<String> activated() {
        return List.copyOf(activated);
    }

    /** Holds the tasks until {@link #runBackground()}, so a test sees the plugin between the cycle and them. */
    @Override
    public Executor background() {
        return background::add;
    }

    /**
     * Runs the background tasks handed over so far, in order, on the calling thread.
     *
     * @return how many ran
     * @since 2.1
     */
    public int runBackground() {
        List<Runnable> tasks = List.copyOf(background);
        background.removeAll(tasks);
        tasks.forEach(Runnable::run);
        return tasks.size();
    }
}
