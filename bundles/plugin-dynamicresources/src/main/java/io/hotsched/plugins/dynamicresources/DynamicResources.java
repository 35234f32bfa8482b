package io.hotsched.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.ObjectLister;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterPlugin;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.PreBindPlugin;
import io.hotsched.api.framework.PreEnqueuePlugin;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.api.framework.Reservations;
import io.hotsched.api.framework.ReservePlugin;
import io.hotsched.api.framework.StateData;
import io.hotsched.api.framework.StateDescriber;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Allocates the devices of a pod's ResourceClaims as kube-scheduler's DynamicResources does
 * (resource.k8s.io/v1, Kubernetes v1.36.3, structured parameters): PreEnqueue holds a pod back
 * until its claims exist; PreFilter reads the claims and classes and sets up the {@link Allocator};
 * Filter finds devices on each node (an allocated claim's node selector must match it); Reserve
 * keeps the chosen allocation in flight in this instance ({@link InFlight}), so the next pod sees
 * those devices taken; PreBind writes the allocation and the pod's reservation to the claim;
 * Unreserve drops them again; PostFilter frees an allocated claim no one uses that keeps the pod
 * off every node.
 */
public final class DynamicResources
        implements PreEnqueuePlugin,
                PreFilterPlugin,
                FilterPlugin,
                PostFilterPlugin,
                ReservePlugin,
                PreBindPlugin,
                EnqueueExtensions,
                StateDescriber {

    public static final String NAME = "DynamicResources";
    private static final StateKey<State> KEY = StateKey.of(NAME, State.class);

    /** One attempt's claims, from PreFilter to PreBind; the Filter threads share it. */
    static final class State implements StateData {
        /** The pod's claims in spec order; PreBind replaces each with the claim as written. */
        final List<ResourceClaim> claims;
        /** Per claim: the node selector of its allocation, when it is allocated and has one. */
        final List<NodeSelector> availableOn;

        final Allocator allocator;
        final Map<String, List<AllocationResult>> byNode = new ConcurrentHashMap<>();
        final Set<Integer> unavailable = ConcurrentHashMap.newKeySet();
        /** Per claim index: the allocation Reserve chose. */
        final Map<Integer, AllocationResult> reserved = new ConcurrentHashMap<>();

        State(List<ResourceClaim> claims, List<NodeSelector> availableOn, Allocator allocator) {
            this.claims = new ArrayList<>(claims);
            this.availableOn = availableOn;
            this.allocator = allocator;
        }

        @Override
        public StateData copy() {
            return this;
        }
    }

    private final Handle handle;
    private final Args args;
    private final CelSelectors cel = new CelSelectors();
    private final InFlight inFlight = new InFlight();
    /** What the other instances' records named, kept until the claims show it (see {@link InFlight#seen}). */
    private final InFlight othersSeen = new InFlight();
    /** Far longer than an informer lags behind a write; only a failed binding of another instance waits this out. */
    private static final long OTHERS_GRACE_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** The key of Reserve's record in the framework's Reservations ({@link InFlight#records()}' text). */
    static final String RESERVED = "allocated";

    private final ClaimWriter writer;

    private DynamicResources(Handle handle, Args args) {
        this.handle = handle;
        this.args = args;
        this.writer = new ClaimWriter(handle.cluster(), handle.listers().resourceClaims());
    }

    /** The plugin with its v1 args ({@link Args}). */
    static DynamicResources create(PluginArgs args, Handle handle) throws InvalidArgsException {
        return new DynamicResources(handle, Args.parse(args));
    }

    static DynamicResources create(Args args, Handle handle) {
        return new DynamicResources(handle, args);
    }

    @Override
    public String name() {
        return NAME;
    }

    Args args() {
        return args;
    }

    /** The in-flight allocations, one record per reserved pod, as {@link InFlight#records()} writes them. */
    Map<String, String> inFlightRecords() {
        return inFlight.records();
    }

    /**
     * What the other instances (the older version finishing its pods after an upgrade, other
     * profiles) have in flight, from the framework's Reservations: read once per PreFilter.
     */
    private InFlight others(String podUid) {
        List<Reservations.Reservation> records = handle.reservations().of(NAME);
        Map<String, String> byPod = new HashMap<>();
        for (Reservations.Reservation r : records) {
            String record = r.entries().get(RESERVED);
            // this instance's own records are its inFlight already, and must end with its Unreserve
            if (record != null && !inFlight.hasPod(r.podUid())) {
                byPod.put(r.podUid(), record);
            }
        }
        othersSeen.seen(byPod, System.nanoTime(), OTHERS_GRACE_NANOS);
        // a pod being scheduled is not bound: an earlier attempt that another instance recorded failed
        if (!byPod.containsKey(podUid)) {
            othersSeen.removePod(podUid);
        }
        othersSeen.devices(claims());
        return othersSeen;
    }

    private ObjectLister<ResourceClaim> claims() {
        return handle.listers().resourceClaims();
    }

    // ---- PreEnqueue, PreFilter, Filter -------------------------------------------------------------

    @Override
    public Status preEnqueue(PodInfo pod) {
        if (!PodClaims.hasClaims(pod.pod())) {
            return Status.SUCCESS;
        }
        try {
            PodClaims.of(pod.pod(), claims());
            return Status.SUCCESS;
        } catch (PodClaims.Missing e) {
            return Status.unresolvable(e.getMessage());
        }
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        if (!PodClaims.hasClaims(pod.pod())) {
            state.write(KEY, new State(List.of(), List.of(), null));
            return PreFilterResult.SKIP;
        }
        List<ResourceClaim> podClaims;
        try {
            podClaims = PodClaims.of(pod.pod(), claims());
        } catch (PodClaims.Missing e) {
            state.write(KEY, new State(List.of(), List.of(), null));
            return PreFilterResult.of(Status.unresolvable(e.getMessage()));
        }
        if (podClaims.isEmpty()) {
            state.write(KEY, new State(List.of(), List.of(), null));
            return PreFilterResult.SKIP;
        }
        // as upstream, the state exists from here on, without claims to deallocate until the end
        state.write(KEY, new State(List.of(), List.of(), null));
        List<NodeSelector> availableOn = new ArrayList<>();
        List<ClaimRequests> toAllocate = new ArrayList<>();
        InFlight others = others(pod.uid());
        for (ResourceClaim c : podClaims) {
            if (PodClaims.allocated(c)) {
                if (!PodClaims.canBeReserved(c) && !PodClaims.reservedFor(c, pod.uid())) {
                    return PreFilterResult.of(Status.unresolvable("resourceclaim in use"));
                }
                availableOn.add(c.getStatus().getAllocation().getNodeSelector());
                continue;
            }
            availableOn.add(null);
            if (inFlight.pending(c.getMetadata().getUid())
                    || others.pending(c.getMetadata().getUid())) {
                return PreFilterResult.of(Status.unresolvable(
                        "resource claim " + Allocator.key(c) + " is in the process of being allocated"));
            }
            try {
                toAllocate.add(ClaimRequests.of(c, handle.listers().deviceClasses()));
            } catch (ClaimRequests.Unusable e) {
                return PreFilterResult.of(e.error ? Status.error(e.getMessage()) : Status.unresolvable(e.getMessage()));
            }
        }
        Allocator allocator = null;
        if (!toAllocate.isEmpty()) {
            Set<String> taken = InFlight.taken(claims(), inFlight, others);
            allocator = new Allocator(
                    toAllocate, DevicePools.of(handle.listers().resourceSlices().list()), taken, cel);
        }
        state.write(KEY, new State(podClaims, availableOn, allocator));
        return PreFilterResult.ALL_NODES;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        State s = state.readOrNull(KEY);
        if (s == null) {
            return Status.error("reading \"" + KEY.name() + "\" from cycleState: not found");
        }
        if (s.claims.isEmpty()) {
            return Status.SUCCESS;
        }
        List<Integer> unavailable = new ArrayList<>();
        for (int i = 0; i < s.claims.size(); i++) {
            NodeSelector sel = s.availableOn.get(i);
            if (sel != null && !NodeMatch.matches(sel, node.node())) {
                unavailable.add(i);
            }
        }
        if (s.allocator != null) {
            List<AllocationResult> a;
            try {
                long deadline = args.filterTimeout().isZero()
                        ? 0
                        : System.nanoTime() + args.filterTimeout().toNanos();
                a = s.allocator.allocate(node.node(), deadline);
            } catch (Allocator.TimedOut | Allocator.InvalidPools e) {
                return Status.unresolvable(e.getMessage());
            } catch (Allocator.AllocationError e) {
                return Status.error(e.getMessage());
            }
            if (a == null) {
                return Status.unresolvable("cannot allocate all claims");
            }
            if (unavailable.isEmpty()) {
                s.byNode.put(node.name(), a);
            }
        }
        if (!unavailable.isEmpty()) {
            s.unavailable.addAll(unavailable);
            return Status.unresolvable("resourceclaim not available on the node");
        }
        return Status.SUCCESS;
    }

    // ---- PostFilter ---------------------------------------------------------------------------------

    @Override
    public PostFilterResult postFilter(CycleState state, PodInfo pod, NodeToStatus statuses) {
        if (!PodClaims.hasClaims(pod.pod())) {
            return PostFilterResult.of(Status.of(Code.UNSCHEDULABLE));
        }
        State s = state.readOrNull(KEY);
        if (s == null) {
            return PostFilterResult.of(Status.error("reading \"" + KEY.name() + "\" from cycleState: not found"));
        }
        if (s.claims.isEmpty()) {
            return PostFilterResult.of(Status.unschedulable("no new claims to deallocate"));
        }
        for (int i : s.unavailable) {
            ResourceClaim c = s.claims.get(i);
            var reserved = c.getStatus().getReservedFor();
            if (reserved == null || reserved.isEmpty() || reserved.size() == 1 && PodClaims.reservedFor(c, pod.uid())) {
                try {
                    writer.deallocate(c);
                } catch (RuntimeException e) {
                    return PostFilterResult.of(Status.error(e));
                }
                return PostFilterResult.of(Status.unschedulable("deallocation of ResourceClaim completed"));
            }
        }
        return PostFilterResult.of(Status.unschedulable("still not schedulable"));
    }

    // ---- Reserve, Unreserve, PreBind ------------------------------------------------------------------

    @Override
    public Status reserve(CycleState state, PodInfo pod, String nodeName) {
        State s = state.readOrNull(KEY);
        if (s == null) {
            return Status.error("reading \"" + KEY.name() + "\" from cycleState: not found");
        }
        if (s.allocator == null) {
            return Status.SUCCESS;
        }
        List<AllocationResult> allocations = s.byNode.get(nodeName);
        if (allocations == null) {
            return Status.error("claim allocation not found for node");
        }
        List<ResourceClaim> toAllocate = s.allocator.claimsToAllocate();
        for (int i = 0; i < toAllocate.size(); i++) {
            ResourceClaim c = toAllocate.get(i);
            int index = s.claims.indexOf(c);
            if (index < 0) {
                return Status.error(
                        "internal error, claim " + c.getMetadata().getName() + " with allocation not found");
            }
            s.reserved.put(index, allocations.get(i));
            inFlight.add(pod.uid(), c, allocations.get(i));
        }
        String record = inFlight.records().get(pod.uid());
        if (record != null) {
            handle.reservations().record(NAME, pod, Map.of(RESERVED, record));
        }
        return Status.SUCCESS;
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String nodeName) {
        inFlight.removePod(pod.uid());
        handle.reservations().drop(NAME, pod);
        State s = state.readOrNull(KEY);
        if (s == null) {
            return;
        }
        for (ResourceClaim c : s.claims) {
            if (PodClaims.allocated(c) && PodClaims.reservedFor(c, pod.uid())) {
                // tried again when the pod is: the claim shows the reservation until then
                writer.unreserve(c, pod);
            }
        }
    }

    @Override
    public Status preBind(CycleState state, PodInfo pod, String nodeName) {
        State s = state.readOrNull(KEY);
        if (s == null) {
            return Status.error("reading \"" + KEY.name() + "\" from cycleState: not found");
        }
        for (int i = 0; i < s.claims.size(); i++) {
            ResourceClaim c = s.claims.get(i);
            if (PodClaims.reservedFor(c, pod.uid())) {
                continue;
            }
            try {
                ResourceClaim stored = writer.reserve(c, s.reserved.get(i), pod);
                s.claims.set(i, stored);
                inFlight.written(stored);
            } catch (RuntimeException e) {
                return Status.error(e.getMessage(), e);
            }
        }
        return Status.SUCCESS;
    }

    // ---- events ---------------------------------------------------------------------------------------

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return List.of(
                ClusterEventWithHint.of(
                        ClusterEvent.of(ClusterEvent.NODE, ActionType.ADD, ActionType.UPDATE_NODE_LABEL)),
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.RESOURCE_CLAIM, ActionType.ADD, ActionType.UPDATE),
                        this::afterClaimChange),
                new ClusterEventWithHint(ClusterEvent.of(ClusterEvent.POD, ActionType.UPDATE), this::afterPodChange),
                ClusterEventWithHint.of(ClusterEvent.of(ClusterEvent.DEVICE_CLASS, ActionType.ADD, ActionType.UPDATE)),
                ClusterEventWithHint.of(
                        ClusterEvent.of(ClusterEvent.RESOURCE_SLICE, ActionType.ADD, ActionType.UPDATE)));
    }

    /**
     * A claim was made or changed: the pod is tried again when it is one of its claims (and all
     * its claims now exist) and the claim's status changed, or when any claim was deallocated.
     */
    QueueingHint afterClaimChange(PodInfo pod, Object oldObject, Object newObject) {
        ResourceClaim before = (ResourceClaim) oldObject;
        ResourceClaim after = (ResourceClaim) newObject;
        List<ResourceClaim> podClaims;
        try {
            // the claim as reported, whether or not the lister shows it yet
            podClaims = PodClaims.of(pod.pod(), new WithClaim(claims(), after));
        } catch (PodClaims.Missing e) {
            return QueueingHint.SKIP;
        }
        if (before != null && PodClaims.allocated(before) && !PodClaims.allocated(after)) {
            return QueueingHint.QUEUE;
        }
        boolean uses = podClaims.stream()
                .anyMatch(c -> Objects.equals(
                        c.getMetadata().getUid(), after.getMetadata().getUid()));
        if (!uses) {
            return QueueingHint.SKIP;
        }
        if (before == null) {
            return QueueingHint.QUEUE;
        }
        return Objects.equals(before.getStatus(), after.getStatus()) ? QueueingHint.SKIP : QueueingHint.QUEUE;
    }

    /** The pod itself changed: tried again when its generated claims are now all recorded and exist. */
    QueueingHint afterPodChange(PodInfo pod, Object oldObject, Object newObject) {
        Pod modified = newObject instanceof PodInfo p ? p.pod() : (Pod) newObject;
        if (modified == null || !Objects.equals(modified.getMetadata().getUid(), pod.uid())) {
            return QueueingHint.SKIP;
        }
        try {
            PodClaims.of(modified, claims());
            return QueueingHint.QUEUE;
        } catch (PodClaims.Missing e) {
            return QueueingHint.SKIP;
        }
    }

    @Override
    public Map<String, Object> describeState(String nodeName) {
        return Map.of("claims allocated in flight", inFlight.size());
    }

    /** A claim lister that already shows one claim as an event reports it. */
    private record WithClaim(ObjectLister<ResourceClaim> lister, ResourceClaim claim)
            implements ObjectLister<ResourceClaim> {
        @Override
        public ResourceClaim get(String namespace, String name) {
            return Objects.equals(namespace, claim.getMetadata().getNamespace())
                            && Objects.equals(name, claim.getMetadata().getName())
                    ? claim
                    : lister.get(namespace, name);
        }

        @Override
        public List<ResourceClaim> list() {
            return lister.list();
        }

        @Override
        public List<ResourceClaim> list(String namespace) {
            return lister.list(namespace);
        }
    }
}
