package io.hotsched.core.scheduler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.cluster.ClusterEvents;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.core.cache.ClusterCache;
import io.hotsched.core.cache.ObjectStore;
import io.hotsched.core.queue.QueueingHints;
import io.hotsched.core.queue.SchedulingQueue;
import io.hotsched.core.runtime.PluginInstance;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's events, as the scheduler takes them (upstream's eventhandlers.go): bound pods and
 * nodes go to the cache, pending pods of our profiles to the queue (the others are kept aside until
 * a profile serves them; those of a scheduler observed go to the {@link Observer}, never to the
 * queue, and are compared once seen bound), and each change may move unschedulable pods it can help back to the
 * active queue, as the {@link QueueingHints} decide.
 */
public final class EventHandlers implements ClusterEvents {

    private static final Logger LOG = LoggerFactory.getLogger(EventHandlers.class);

    private final ClusterCache cache;
    private final SchedulingQueue queue;
    private final ProfileManager profiles;
    private final ObjectStore objects;
    private final Leadership leadership;
    private final Reporter reporter;
    private final Observer observer;
    /** The pods told they cannot be read, with why: each is told once per reason. */
    private final Map<String, String> unreadable = new ConcurrentHashMap<>();

    private final QueueingHints hints;
    /** Where a hint that threw counts against its plugin's instance. */
    private final BiConsumer<PluginInstance, String> hintFaults;

    private final Map<String, PodInfo> pendingForOthers = new ConcurrentHashMap<>();
    private final CountDownLatch synced = new CountDownLatch(1);

    EventHandlers(
            ClusterCache cache,
            SchedulingQueue queue,
            ProfileManager profiles,
            ObjectStore objects,
            Leadership leadership,
            Reporter reporter,
            Observer observer,
            BiConsumer<PluginInstance, String> hintFaults) {
        this.cache = cache;
        this.queue = queue;
        this.profiles = profiles;
        this.objects = objects;
        this.leadership = leadership;
        this.reporter = reporter;
        this.observer = observer;
        this.hintFaults = hintFaults;
        this.hints = new QueueingHints(
                profile -> {
                    ProfileState s = profiles.profile(profile);
                    return s == null || !s.ready() ? null : s.framework().enqueueEvents();
                },
                this::hintFailed);
    }

    /** A queueing hint threw: a fault of the profile's instance of its plugin. */
    private void hintFailed(String profile, String plugin, String message) {
        ProfileState s = profiles.profile(profile);
        if (s == null) {
            return;
        }
        for (PluginInstance i : s.framework().instances()) {
            if (i.name().equals(plugin)) {
                hintFaults.accept(i, message);
                return;
            }
        }
    }

    /** Pods kept aside for a profile that did not exist then: queued if a profile serves them now. */
    void profilesChanged() {
        for (PodInfo p : List.copyOf(pendingForOthers.values())) {
            if (profiles.serves(p.schedulerName()) && !observer.observes(p.schedulerName())) {
                pendingForOthers.remove(p.uid());
                queue.add(p);
            }
        }
    }

    /** Observe-only mode changed: the pending pods of the scheduler observed now are decided. */
    void observingChanged() {
        for (PodInfo p : List.copyOf(pendingForOthers.values())) {
            observer.pending(p);
        }
    }

    /** An assumed pod's binding never showed up: it left its node. */
    void assumedExpired(PodInfo p) {
        queue.onEvent(hints, ClusterEvent.POD, ActionType.DELETE, p.pod(), null);
    }

    boolean isSynced() {
        return synced.getCount() == 0;
    }

    void awaitSynced() throws InterruptedException {
        synced.await();
    }

    @Override
    public void nodeAdded(Node node) {
        if (!readNode(node)) {
            return;
        }
        queue.onEvent(hints, ClusterEvent.NODE, ActionType.ADD, null, node);
    }

    @Override
    public void nodeUpdated(Node oldNode, Node newNode) {
        if (!readNode(newNode)) {
            return;
        }
        for (ActionType a : EventKinds.nodeUpdate(oldNode, newNode)) {
            queue.onEvent(hints, ClusterEvent.NODE, a, oldNode, newNode);
        }
    }

    /**
     * Takes the node into the cache; false when it cannot be read (an allocatable that is not a
     * quantity, which kube-apiserver refuses but another server or a webhook may let through): the
     * node is then left out, as if deleted, so that no pod is placed on a node of unknown size, and
     * the log names the node and the value.
     */
    private boolean readNode(Node node) {
        try {
            cache.addOrUpdateNode(node);
            return true;
        } catch (IllegalArgumentException e) {
            String name = node.getMetadata().getName();
            LOG.warn("Node {} cannot be read, so no pod is placed on it: status.allocatable.{}", name, e.getMessage());
            cache.removeNode(name);
            return false;
        }
    }

    @Override
    public void nodeDeleted(Node node) {
        cache.removeNode(node.getMetadata().getName());
        queue.onEvent(hints, ClusterEvent.NODE, ActionType.DELETE, node, null);
    }

    @Override
    public void podAdded(Pod pod) {
        PodInfo p = read(pod);
        if (p == null) {
            return;
        }
        if (p.nodeName() != null) {
            cache.addOrUpdatePod(p);
            observer.bound(p);
            queue.onEvent(hints, ClusterEvent.POD, ActionType.ADD, null, pod);
        } else if (!terminating(pod)) {
            if (observer.observes(p.schedulerName())) {
                // another scheduler's pod, decided here and never queued; kept aside as any other's
                pendingForOthers.put(p.uid(), p);
                observer.pending(p);
            } else if (profiles.serves(p.schedulerName())) {
                queue.add(p);
            } else {
                pendingForOthers.put(p.uid(), p);
            }
        }
    }

    @Override
    public void podUpdated(Pod oldPod, Pod newPod) {
        PodInfo p = read(newPod);
        if (p == null) {
            return;
        }
        if (p.nodeName() != null) {
            // bound (by us or by anyone): no longer pending
            queue.delete(p);
            pendingForOthers.remove(p.uid());
            cache.addOrUpdatePod(p);
            observer.bound(p);
            for (ActionType a : oldPod == null ? List.of(ActionType.ADD) : EventKinds.podUpdate(oldPod, newPod)) {
                queue.onEvent(hints, ClusterEvent.POD, a, oldPod, newPod);
            }
        } else if (terminating(newPod)) {
            queue.delete(p);
            pendingForOthers.remove(p.uid());
            observer.forget(p.uid());
        } else if (observer.observes(p.schedulerName())) {
            queue.delete(p);
            pendingForOthers.put(p.uid(), p);
            if (foundUnschedulable(newPod)) {
                observer.unschedulable(p);
            } else {
                observer.pending(p);
            }
        } else if (profiles.serves(p.schedulerName())) {
            pendingForOthers.remove(p.uid());
            if (nominationCleared(oldPod, newPod)) {
                // someone (preemption of a higher-priority pod) took the node back; an update that
                // merely lacks the nomination we just made in memory does not count
                queue.nominator().delete(p.uid());
            }
            if (oldPod == null || specOrLabelsChanged(oldPod, newPod)) {
                queue.update(p);
            }
        } else {
            queue.delete(p);
            pendingForOthers.put(p.uid(), p);
        }
    }

    @Override
    public void podDeleted(Pod pod) {
        PodInfo p;
        try {
            p = PodInfo.of(pod);
        } catch (IllegalArgumentException e) {
            unreadable.remove(key(pod));
            return; // never queued nor counted
        }
        pendingForOthers.remove(p.uid());
        observer.forget(p.uid());
        queue.delete(p);
        boolean wasCounted = cache.contains(p.uid()) && !cache.isAssumed(p.uid());
        if (wasCounted) {
            cache.removePod(p);
            queue.onEvent(hints, ClusterEvent.POD, ActionType.DELETE, pod, null);
        }
    }

    /**
     * The pod's derived values, or null when the pod cannot be read (a request that is not a
     * quantity: a real API server refuses such a pod, a test server or a bad admission webhook may
     * not). A pending pod of ours is then told why, once per reason, since no attempt will tell it
     * (nor can its spec be compared: a quantity that does not parse equals nothing, so our own
     * status write comes back looking like a change); a bound one is left out of its node's usage,
     * with a warning.
     */
    private PodInfo read(Pod pod) {
        try {
            PodInfo p = PodInfo.of(pod);
            if (!unreadable.isEmpty()) {
                unreadable.remove(p.key());
            }
            return p;
        } catch (IllegalArgumentException e) {
            String key = key(pod);
            if (e.getMessage().equals(unreadable.put(key, e.getMessage()))) {
                return null;
            }
            String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            String schedulerName = pod.getSpec() == null ? null : pod.getSpec().getSchedulerName();
            String profile = schedulerName == null || schedulerName.isEmpty() ? "default-scheduler" : schedulerName;
            if (node != null && !node.isEmpty()) {
                LOG.warn(
                        "Pod {} on node {} cannot be read, so it is not counted on its node: {}",
                        key,
                        node,
                        e.getMessage());
            } else if (!terminating(pod) && profiles.serves(profile)) {
                String message = "pod cannot be scheduled: it cannot be read: " + e.getMessage();
                LOG.warn("Pod {}: {}", key, message);
                if (leadership.leading()) {
                    reporter.unreadable(pod, key, profile, message);
                }
            }
            return null;
        }
    }

    /** The pod's key as {@link PodInfo#key()} gives it, for a pod no PodInfo can be made of. */
    private static String key(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        return (ns == null || ns.isEmpty() ? "default" : ns) + "/"
                + pod.getMetadata().getName();
    }

    @Override
    public void objectChanged(String kind, HasMetadata oldObject, HasMetadata newObject) {
        objects.changed(kind, oldObject, newObject);
        ActionType a = oldObject == null ? ActionType.ADD : newObject == null ? ActionType.DELETE : ActionType.UPDATE;
        queue.onEvent(hints, kind, a, oldObject, newObject);
    }

    @Override
    public void synced() {
        synced.countDown();
    }

    @Override
    public void leading(boolean nowLeading) {
        leadership.set(nowLeading);
    }

    /** Whether the pod's scheduler said it found no node for it (the PodScheduled condition, reason Unschedulable). */
    private static boolean foundUnschedulable(Pod pod) {
        var conditions = pod.getStatus() == null ? null : pod.getStatus().getConditions();
        return conditions != null
                && conditions.stream()
                        .anyMatch(c -> "PodScheduled".equals(c.getType())
                                && "False".equals(c.getStatus())
                                && "Unschedulable".equals(c.getReason()));
    }

    private static boolean nominationCleared(Pod oldPod, Pod newPod) {
        return oldPod != null
                && !nominatedNode(oldPod).isEmpty()
                && nominatedNode(newPod).isEmpty();
    }

    private static String nominatedNode(Pod pod) {
        String n = pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
        return n == null ? "" : n;
    }

    private static boolean terminating(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return pod.getMetadata().getDeletionTimestamp() != null || "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    private static boolean specOrLabelsChanged(Pod oldPod, Pod newPod) {
        // as upstream's isPodUpdated, the one status field that counts: the generated ResourceClaims
        return !Objects.equals(oldPod.getSpec(), newPod.getSpec())
                || !Objects.equals(claimStatuses(oldPod), claimStatuses(newPod))
                || !Objects.equals(
                        oldPod.getMetadata().getLabels(), newPod.getMetadata().getLabels())
                || !Objects.equals(
                        oldPod.getMetadata().getAnnotations(),
                        newPod.getMetadata().getAnnotations());
    }

    /** The generated claims; none written and an empty list are the same (copies differ in which they hold). */
    private static Object claimStatuses(Pod p) {
        var statuses = p.getStatus() == null ? null : p.getStatus().getResourceClaimStatuses();
        return statuses == null || statuses.isEmpty() ? List.of() : statuses;
    }
}
