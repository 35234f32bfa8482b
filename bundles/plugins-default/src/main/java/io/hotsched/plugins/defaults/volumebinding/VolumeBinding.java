package io.hotsched.plugins.defaults.volumebinding;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.ObjectKind;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreBindPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.api.framework.ReservePlugin;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.StateData;
import io.hotsched.api.framework.StateDescriber;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import io.hotsched.plugins.defaults.helper.BrokenLinear;
import io.hotsched.plugins.defaults.helper.Claims;
import io.hotsched.plugins.defaults.helper.StatefulFilter;
import io.hotsched.plugins.defaults.helper.States;
import io.hotsched.plugins.defaults.helper.UtilizationShape;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Binds a pod's PersistentVolumeClaims as part of scheduling it (upstream's VolumeBinding).
 * PreFilter refuses a pod whose claim is missing, lost, being deleted, or unbound with immediate
 * binding; Filter checks a bound volume's node affinity and finds, for each claim of a
 * WaitForFirstConsumer class, an available volume the node can reach or a provisioner whose class
 * topology and CSIStorageCapacity allow it; Reserve assumes the choice in this instance's caches
 * (the next pods see the volume taken); PreBind writes it (the volume's claimRef, the claim's
 * {@code volume.kubernetes.io/selected-node}) and waits, without a thread, for the PersistentVolume
 * controller to bind, at most {@code bindTimeoutSeconds}; Unreserve drops the assumptions. What
 * Reserve assumed is also recorded in the framework's {@link io.hotsched.api.framework.Reservations},
 * so the instance of a newer version, which serves while this one finishes its pods after an
 * upgrade, and the instances of other profiles, do not give the same volume to another claim.
 */
public final class VolumeBinding
        implements StatefulFilter<VolumeBinding.State>,
                PreScorePlugin,
                ScorePlugin,
                ReservePlugin,
                PreBindPlugin,
                EnqueueExtensions,
                StateDescriber {

    public static final String NAME = "VolumeBinding";
    static final long DEFAULT_BIND_TIMEOUT_SECONDS = 600;
    private static final StateKey<State> KEY = StateKey.of(NAME, State.class);

    /** VolumeBindingArgs (v1). */
    public static final class Args {
        public Long bindTimeoutSeconds;
        public List<UtilizationShape.Point> shape;
    }

    /**
     * One attempt's volume decisions, from PreFilter to PreBind: shared by the Filter threads (one
     * entry per node), so a copy is the same object, as upstream's.
     */
    static final class State implements StateData {
        final PodVolumeClaims claims;
        final Map<String, PodVolumes> byNode = new ConcurrentHashMap<>();
        volatile boolean hasStaticBindings;
        volatile boolean allBound;
        /** When PreBind wrote its updates and gives up waiting; null before. */
        volatile Instant deadline;

        State(PodVolumeClaims claims) {
            this.claims = claims;
        }

        @Override
        public StateData copy() {
            return this;
        }
    }

    private final Handle handle;
    private final VolumeBinder binder;
    private final Duration bindTimeout;
    /** Storage capacity scoring, when args give a shape; null otherwise. */
    private final BrokenLinear shape;

    private VolumeBinding(Handle handle, Duration bindTimeout, BrokenLinear shape) {
        this.handle = handle;
        this.binder = new VolumeBinder(handle.listers());
        this.bindTimeout = bindTimeout;
        this.shape = shape;
    }

    /**
     * The plugin with its v1 args: {@code bindTimeoutSeconds} (default 600, not negative) and
     * {@code shape}, which turns storage capacity scoring on (upstream's StorageCapacityScoring
     * gate, alpha and off in v1.36, has no switch here: a shape is the opt-in).
     */
    static VolumeBinding create(PluginArgs args, Handle handle) throws InvalidArgsException {
        Args a = args.as(Args.class);
        long timeout = a.bindTimeoutSeconds == null || a.bindTimeoutSeconds == 0
                ? DEFAULT_BIND_TIMEOUT_SECONDS
                : a.bindTimeoutSeconds;
        if (timeout < 0) {
            throw new InvalidArgsException(
                    "bindTimeoutSeconds",
                    a.bindTimeoutSeconds,
                    "invalid BindTimeoutSeconds, should not be a negative value");
        }
        BrokenLinear shape = a.shape == null || a.shape.isEmpty() ? null : UtilizationShape.parse(a.shape, "shape");
        return new VolumeBinding(handle, Duration.ofSeconds(timeout), shape);
    }

    @Override
    public String name() {
        return NAME;
    }

    VolumeBinder binder() {
        return binder;
    }

    // ---- PreFilter, Filter ---------------------------------------------------------------------

    @Override
    public StateKey<State> preFilterKey() {
        return KEY;
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        String refusal = null;
        boolean hasClaims = false;
        for (Volume v : Claims.volumes(pod)) {
            String name = Claims.claimName(pod, v);
            if (name == null) {
                continue;
            }
            hasClaims = true;
            refusal = unusable(pod, v, name);
            if (refusal != null) {
                break;
            }
        }
        if (refusal != null) {
            return PreFilterResult.of(Status.unresolvable(refusal));
        }
        if (!hasClaims) {
            state.write(KEY, new State(new PodVolumeClaims(List.of(), List.of(), List.of(), Map.of())));
            return PreFilterResult.SKIP;
        }
        PodVolumeClaims claims;
        try {
            binder.refreshShared(handle.reservations().of(NAME));
            claims = binder.claims(pod);
        } catch (RuntimeException e) {
            return PreFilterResult.of(Status.error(e));
        }
        if (!claims.unboundImmediate().isEmpty()) {
            // the PersistentVolume controller binds them; the claims' updates bring the pod back
            return PreFilterResult.of(Status.unresolvable("pod has unbound immediate PersistentVolumeClaims"));
        }
        state.write(KEY, new State(claims));
        return PreFilterResult.ALL_NODES;
    }

    /**
     * The claims PreFilter sorted into {@code state}, by name: fully bound, unbound of a
     * WaitForFirstConsumer class, and per such class its volumes (sorted); what upstream's table
     * checks after PreFilter. Null when PreFilter wrote nothing.
     */
    public static Map<String, Object> claimsAfterPreFilter(CycleState state) {
        State s = state.readOrNull(KEY);
        if (s == null) {
            return null;
        }
        Map<String, List<String>> volumes = new TreeMap<>();
        s.claims
                .volumesByClass()
                .forEach((cls, pvs) ->
                        volumes.put(cls, names(pvs).stream().sorted().toList()));
        return Map.of(
                "boundClaims", names(s.claims.bound()),
                "unboundClaimsDelayBinding", names(s.claims.unboundDelayBinding()),
                "unboundVolumesDelayBinding", volumes);
    }

    /**
     * What Filter found for the pod's unbound claims on {@code nodeName} in {@code state}: the
     * static bindings ({@code "<ns>/<claim> -> <volume>"}) and the claims to provision ({@code
     * "<ns>/<claim>"}, with {@code " on <capacity> <its node topology labels>"} when a
     * CSIStorageCapacity has room); what upstream's binder tables check. Null when Filter passed
     * no such node.
     */
    public static Map<String, List<String>> volumesFound(CycleState state, String nodeName) {
        State s = state.readOrNull(KEY);
        PodVolumes v = s == null ? null : s.byNode.get(nodeName);
        if (v == null) {
            return null;
        }
        return Map.of(
                "staticBindings",
                v.staticBindings.stream()
                        .map(b -> claimKey(b.pvc()) + " -> "
                                + b.pv().getMetadata().getName())
                        .toList(),
                "dynamicProvisions",
                v.dynamicProvisions.stream().map(VolumeBinding::provisionKey).toList());
    }

    private static String provisionKey(PodVolumes.Provision p) {
        if (p.capacity() == null) {
            return claimKey(p.pvc());
        }
        var topology = p.capacity().getNodeTopology();
        Map<String, String> labels =
                topology == null || topology.getMatchLabels() == null ? Map.of() : topology.getMatchLabels();
        return claimKey(p.pvc()) + " on " + p.capacity().getMetadata().getName() + " " + new TreeMap<>(labels);
    }

    private static String claimKey(PersistentVolumeClaim c) {
        return VolumeMatch.namespace(c.getMetadata().getNamespace()) + "/"
                + c.getMetadata().getName();
    }

    private static List<String> names(List<? extends HasMetadata> objects) {
        return objects.stream().map(o -> o.getMetadata().getName()).toList();
    }

    /** Why the claim cannot be used by the pod, in upstream's words; null when it can. */
    private String unusable(PodInfo pod, Volume v, String name) {
        PersistentVolumeClaim c = handle.listers().persistentVolumeClaims().get(pod.namespace(), name);
        boolean ephemeral = v.getEphemeral() != null;
        if (c == null) {
            // normal right after the pod is made: the ephemeral volume controller creates the claim
            return ephemeral
                    ? "waiting for ephemeral volume controller to create the persistentvolumeclaim \"" + name + "\""
                    : Claims.notFound(ObjectKind.PERSISTENT_VOLUME_CLAIM, name);
        }
        if (c.getStatus() != null && "Lost".equals(c.getStatus().getPhase())) {
            return "persistentvolumeclaim \"" + name + "\" bound to non-existent persistentvolume \""
                    + (c.getSpec() == null ? "" : Objects.toString(c.getSpec().getVolumeName(), "")) + "\"";
        }
        if (c.getMetadata().getDeletionTimestamp() != null) {
            return "persistentvolumeclaim \"" + name + "\" is being deleted";
        }
        return ephemeral ? Claims.notForPod(pod, c) : null;
    }

    @Override
    public Status filter(State s, PodInfo pod, NodeInfo node) {
        VolumeBinder.Found found;
        try {
            found = binder.find(s.claims, node.node());
        } catch (RuntimeException e) {
            return Status.error(e);
        }
        if (!found.reasons().isEmpty()) {
            return Status.unresolvable(found.reasons().toArray(String[]::new));
        }
        s.byNode.put(node.name(), found.volumes());
        if (!found.volumes().staticBindings.isEmpty()) {
            s.hasStaticBindings = true;
        }
        return Status.SUCCESS;
    }

    // ---- PreScore, Score -------------------------------------------------------------------------

    @Override
    public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> feasibleNodes) {
        if (shape == null) {
            return Status.SKIP;
        }
        return state.readOrNull(KEY) == null ? States.notFound(KEY) : Status.SUCCESS;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        State s = state.readOrNull(KEY);
        PodVolumes volumes = s == null || shape == null ? null : s.byNode.get(node.name());
        return volumes == null ? 0 : CapacityScore.of(volumes, shape);
    }

    // ---- Reserve, Unreserve, PreBind ---------------------------------------------------------------

    @Override
    public Status reserve(CycleState state, PodInfo pod, String nodeName) {
        State s = state.readOrNull(KEY);
        if (s == null) {
            return States.notFound(KEY);
        }
        PodVolumes volumes = s.byNode.get(nodeName);
        if (volumes == null) {
            // no claim to bind
            s.allBound = true;
            return Status.SUCCESS;
        }
        try {
            s.allBound = binder.assume(pod, nodeName, volumes);
        } catch (RuntimeException e) {
            return Status.error(e);
        }
        if (!s.allBound) {
            handle.reservations().record(NAME, pod, SharedAssumptions.entries(volumes));
        }
        return Status.SUCCESS;
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String nodeName) {
        State s = state.readOrNull(KEY);
        PodVolumes volumes = s == null ? null : s.byNode.get(nodeName);
        if (volumes != null) {
            handle.reservations().drop(NAME, pod);
            binder.revert(volumes);
        }
    }

    @Override
    public Status preBind(CycleState state, PodInfo pod, String nodeName) {
        State s = state.readOrNull(KEY);
        if (s == null) {
            return States.notFound(KEY);
        }
        if (s.allBound) {
            return Status.SUCCESS;
        }
        PodVolumes volumes = s.byNode.get(nodeName);
        if (volumes == null) {
            return Status.error("no pod volumes found for node \"" + nodeName + "\"");
        }
        Instant now = handle.clock().instant();
        try {
            if (s.deadline == null) {
                binder.write(handle.cluster(), volumes);
                s.deadline = now.plus(bindTimeout);
            }
            NodeInfo node = handle.snapshot().get(nodeName);
            if (node == null || node.node() == null) {
                throw new IllegalStateException(
                        "failed to get node \"" + nodeName + "\": node \"" + nodeName + "\" not found");
            }
            if (binder.done(pod, node.node(), volumes)) {
                return Status.SUCCESS;
            }
        } catch (RuntimeException e) {
            return Status.error("binding volumes: " + e.getMessage(), e);
        }
        if (!now.isBefore(s.deadline)) {
            return Status.error("binding volumes: context deadline exceeded");
        }
        // the PersistentVolume controller has yet to finish: asked again in a second, holding no thread
        return Status.of(Code.WAIT);
    }

    // ---- events ---------------------------------------------------------------------------------

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return List.of(
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.STORAGE_CLASS, ActionType.ADD, ActionType.UPDATE),
                        VolumeBinding::afterClassChange),
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.PERSISTENT_VOLUME_CLAIM, ActionType.ADD, ActionType.UPDATE),
                        VolumeBinding::afterClaimChange),
                ClusterEventWithHint.of(
                        ClusterEvent.of(ClusterEvent.PERSISTENT_VOLUME, ActionType.ADD, ActionType.UPDATE)),
                ClusterEventWithHint.of(
                        ClusterEvent.of(ClusterEvent.NODE, ActionType.ADD, ActionType.UPDATE_NODE_LABEL)),
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.CSI_NODE, ActionType.ADD, ActionType.UPDATE),
                        VolumeBinding::afterCsiNodeChange),
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.CSI_DRIVER, ActionType.UPDATE),
                        VolumeBinding::afterCsiDriverChange),
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.CSI_STORAGE_CAPACITY, ActionType.ADD, ActionType.UPDATE),
                        VolumeBinding::afterCapacityChange));
    }

    /** A new class, or one whose allowed topologies changed (its binding mode cannot change). */
    static QueueingHint afterClassChange(PodInfo pod, Object oldObject, Object newObject) {
        StorageClass after = (StorageClass) newObject;
        if (oldObject == null) {
            return QueueingHint.QUEUE;
        }
        return Objects.equals(((StorageClass) oldObject).getAllowedTopologies(), after.getAllowedTopologies())
                ? QueueingHint.SKIP
                : QueueingHint.QUEUE;
    }

    /** A claim the pod uses (its own or its ephemeral volume's) was created or changed. */
    static QueueingHint afterClaimChange(PodInfo pod, Object oldObject, Object newObject) {
        PersistentVolumeClaim claim = (PersistentVolumeClaim) newObject;
        if (pod.claimNames().isEmpty()) {
            // no claim of this pod can have changed, whatever claim the event carries
            return QueueingHint.SKIP;
        }
        return Claims.usedBy(pod, claim) ? QueueingHint.QUEUE : QueueingHint.SKIP;
    }

    /** A new CSINode, or one whose migrated plugins changed. */
    static QueueingHint afterCsiNodeChange(PodInfo pod, Object oldObject, Object newObject) {
        if (oldObject == null) {
            return QueueingHint.QUEUE;
        }
        String key = MigratedTopology.MIGRATED_PLUGINS;
        return Objects.equals(annotation((CSINode) oldObject, key), annotation((CSINode) newObject, key))
                ? QueueingHint.SKIP
                : QueueingHint.QUEUE;
    }

    private static String annotation(CSINode n, String key) {
        return n.getMetadata().getAnnotations() == null
                ? null
                : n.getMetadata().getAnnotations().get(key);
    }

    /** A driver of one of the pod's inline CSI volumes stopped reporting capacity. */
    static QueueingHint afterCsiDriverChange(PodInfo pod, Object oldObject, Object newObject) {
        CSIDriver before = (CSIDriver) oldObject;
        CSIDriver after = (CSIDriver) newObject;
        for (Volume v : Claims.volumes(pod)) {
            if (v.getCsi() == null
                    || !after.getMetadata().getName().equals(v.getCsi().getDriver())) {
                continue;
            }
            boolean had = before.getSpec() != null
                    && Boolean.TRUE.equals(before.getSpec().getStorageCapacity());
            boolean has = after.getSpec() != null
                    && Boolean.TRUE.equals(after.getSpec().getStorageCapacity());
            if (had && !has) {
                return QueueingHint.QUEUE;
            }
        }
        return QueueingHint.SKIP;
    }

    /** A new capacity, or one whose volume limit grew. */
    static QueueingHint afterCapacityChange(PodInfo pod, Object oldObject, Object newObject) {
        if (oldObject == null) {
            return QueueingHint.QUEUE;
        }
        var before = VolumeBinder.volumeLimit((CSIStorageCapacity) oldObject);
        var after = VolumeBinder.volumeLimit((CSIStorageCapacity) newObject);
        return after != null && (before == null || VolumeMatch.bytes(after).compareTo(VolumeMatch.bytes(before)) > 0)
                ? QueueingHint.QUEUE
                : QueueingHint.SKIP;
    }

    @Override
    public Map<String, Object> describeState(String nodeName) {
        // the assumptions are cluster-wide, not per node
        return Map.of(
                "assumed PersistentVolumes", binder.pvs.assumedCount(),
                "assumed claims to provision", binder.pvcs.assumedCount());
    }
}
