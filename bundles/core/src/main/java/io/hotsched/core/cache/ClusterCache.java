package io.hotsched.core.cache;

import io.fabric8.kubernetes.api.model.Node;
import io.hotsched.api.framework.ImageStateSummary;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Reservations;
import io.hotsched.core.runtime.Snapshot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The scheduler's view of nodes and the pods on them: bound pods as the cluster reports them, and
 * pods assumed by the scheduler before their binding is confirmed (counted on their node at once,
 * so the next attempt does not place another pod in the same room). An assumed pod whose binding
 * finished but never showed up in the cluster expires after a time-to-live.
 *
 * <p>Thread-safe; one lock, held briefly. Every change bumps the node's generation so that
 * {@link #updateSnapshot} copies only what changed.
 */
public final class ClusterCache {

    private static final class PodState {
        PodInfo pod;
        String node;
        boolean assumed;
        Instant deadline;
    }

    private final Object lock = new Object();
    private final Map<String, NodeInfo> nodes = new HashMap<>();
    /** The nodes by their last change, so a snapshot copies only what changed since it was taken. */
    private final TreeMap<Long, NodeInfo> byGeneration = new TreeMap<>();

    private int withNode;
    private final Map<String, PodState> pods = new HashMap<>();
    private final Duration assumedTtl;
    private final Clock clock;
    private long generation;
    private long setGeneration;
    private final Map<String, Map<String, Long>> nodeImages = new HashMap<>();
    private final Map<String, Integer> imageNodeCounts = new HashMap<>();
    private long imageVersion;
    private final AssumedReservations reservations;

    public ClusterCache(Duration assumedTtl, Clock clock) {
        this.assumedTtl = assumedTtl;
        this.clock = clock;
        this.reservations = new AssumedReservations(lock, uid -> {
            PodState s = pods.get(uid);
            return s != null && s.assumed ? s.node : null;
        });
    }

    /** What plugins reserved for the pods assumed now; a pod's records end with its assumption. */
    public Reservations reservations() {
        return reservations;
    }

    // ---- nodes ------------------------------------------------------------------------------------

    public void addOrUpdateNode(Node node) {
        synchronized (lock) {
            String name = node.getMetadata().getName();
            NodeInfo n = nodes.get(name);
            boolean wasMissing = n == null || n.node() == null;
            if (n == null) {
                // built before it is added: a node that cannot be read throws and adds nothing
                n = new NodeInfo(node);
                nodes.put(name, n);
                setGeneration = ++generation;
            } else {
                n.setNode(node);
            }
            updateImages(name, ImageNames.of(node));
            touch(n);
            if (wasMissing) {
                withNode++;
                setGeneration = generation;
            }
        }
    }

    public void removeNode(String name) {
        synchronized (lock) {
            updateImages(name, Map.of());
            NodeInfo n = nodes.get(name);
            if (n == null) {
                return;
            }
            if (n.node() != null) {
                withNode--;
            }
            if (n.pods().isEmpty()) {
                nodes.remove(name);
                forgetGeneration(n);
            } else {
                // pods still name the node: keep counting them until they go
                n.clearNode();
                touch(n);
            }
            setGeneration = ++generation;
        }
    }

    private void updateImages(String node, Map<String, Long> images) {
        Map<String, Long> old = images.isEmpty() ? nodeImages.remove(node) : nodeImages.put(node, images);
        if (old == null) {
            old = Map.of();
        }
        if (old.keySet().equals(images.keySet())) {
            return;
        }
        for (String image : old.keySet()) {
            if (!images.containsKey(image)) {
                imageNodeCounts.computeIfPresent(image, (k, c) -> c <= 1 ? null : c - 1);
            }
        }
        for (String image : images.keySet()) {
            if (!old.containsKey(image)) {
                imageNodeCounts.merge(image, 1, Integer::sum);
            }
        }
        imageVersion++;
    }

    private void setImageStates(NodeInfo copy) {
        Map<String, Long> images = nodeImages.getOrDefault(copy.name(), Map.of());
        if (images.isEmpty()) {
            return;
        }
        Map<String, ImageStateSummary> states = new HashMap<>(images.size() * 2);
        images.forEach((image, size) ->
                states.put(image, new ImageStateSummary(size, imageNodeCounts.getOrDefault(image, 0))));
        copy.setImageStates(states);
    }

    // ---- pods -------------------------------------------------------------------------------------

    /** Counts {@code pod} on {@code node} before the binding is confirmed. */
    public void assume(PodInfo pod, String node) {
        synchronized (lock) {
            if (pods.containsKey(pod.uid())) {
                throw new IllegalStateException(
                        "pod " + pod.key() + " (" + pod.uid() + ") is already in the cache, so can't be assumed");
            }
            PodState s = new PodState();
            s.pod = pod;
            s.node = node;
            s.assumed = true;
            pods.put(pod.uid(), s);
            nodeFor(node).addPod(pod);
            touch(nodes.get(node));
        }
    }

    /** The binding of an assumed pod was sent; it expires if the cluster never reports it. */
    public void finishBinding(PodInfo pod) {
        synchronized (lock) {
            PodState s = pods.get(pod.uid());
            if (s != null && s.assumed) {
                s.deadline = clock.instant().plus(assumedTtl);
            }
        }
    }

    /** Drops an assumed pod (its attempt failed after assume). */
    public void forget(PodInfo pod) {
        synchronized (lock) {
            PodState s = pods.get(pod.uid());
            if (s == null || !s.assumed) {
                return;
            }
            removeFromNode(s);
            pods.remove(pod.uid());
            reservations.ended(pod.uid());
        }
    }

    public boolean isAssumed(String uid) {
        synchronized (lock) {
            PodState s = pods.get(uid);
            return s != null && s.assumed;
        }
    }

    /** Whether the pod is counted on a node (bound or assumed). */
    public boolean contains(String uid) {
        synchronized (lock) {
            return pods.containsKey(uid);
        }
    }

    /** The node the pod is counted on (bound or assumed); null when none. */
    public String nodeOfPod(String uid) {
        synchronized (lock) {
            PodState s = pods.get(uid);
            return s == null ? null : s.node;
        }
    }

    /**
     * A pod the cluster reports on a node: confirms an assumed pod, or counts a new one. A pod that
     * has terminated (Succeeded or Failed) is removed instead: it no longer uses its node.
     */
    public void addOrUpdatePod(PodInfo pod) {
        String node = pod.nodeName();
        synchronized (lock) {
            PodState s = pods.get(pod.uid());
            if (node == null || terminated(pod)) {
                if (s != null && !s.assumed) {
                    removeFromNode(s);
                    pods.remove(pod.uid());
                }
                return;
            }
            if (s == null) {
                s = new PodState();
                pods.put(pod.uid(), s);
            } else {
                removeFromNode(s);
                if (s.assumed) {
                    reservations.ended(pod.uid());
                }
            }
            s.pod = pod;
            s.node = node;
            s.assumed = false;
            s.deadline = null;
            nodeFor(node).addPod(pod);
            touch(nodes.get(node));
        }
    }

    public void removePod(PodInfo pod) {
        synchronized (lock) {
            PodState s = pods.remove(pod.uid());
            if (s != null) {
                removeFromNode(s);
                reservations.ended(pod.uid());
            }
        }
    }

    /** Removes assumed pods whose binding finished more than the time-to-live ago; returns them. */
    public List<PodInfo> cleanupExpired() {
        Instant now = clock.instant();
        List<PodInfo> expired = new ArrayList<>();
        synchronized (lock) {
            for (var it = pods.entrySet().iterator(); it.hasNext(); ) {
                PodState s = it.next().getValue();
                if (s.assumed && s.deadline != null && now.isAfter(s.deadline)) {
                    removeFromNode(s);
                    it.remove();
                    reservations.ended(s.pod.uid());
                    expired.add(s.pod);
                }
            }
        }
        return expired;
    }

    // ---- snapshot ---------------------------------------------------------------------------------

    /** Brings {@code snapshot} up to date, copying only the nodes that changed since it was taken. */
    public void updateSnapshot(Snapshot snapshot) {
        synchronized (lock) {
            if (snapshot.generation() == generation && snapshot.imageVersion() == imageVersion) {
                return;
            }
            if (snapshot.generation() < setGeneration || snapshot.size() != countWithNode()) {
                List<NodeInfo> all = new ArrayList<>();
                for (NodeInfo n : new TreeMap<>(nodes).values()) {
                    if (n.node() != null) {
                        NodeInfo c = n.copy();
                        setImageStates(c);
                        all.add(c);
                    }
                }
                snapshot.rebuild(all, generation);
                snapshot.setImageVersion(imageVersion);
                return;
            }
            long since = snapshot.generation();
            boolean imagesMoved = snapshot.imageVersion() != imageVersion;
            // only the nodes changed since the snapshot's generation: O(changes), not O(nodes)
            Iterable<NodeInfo> changed = imagesMoved
                    ? nodes.values()
                    : byGeneration.tailMap(since, false).values();
            for (NodeInfo n : changed) {
                if (n.node() == null) {
                    continue;
                }
                if (n.generation() > since || imagesMoved && nodeImages.containsKey(n.name())) {
                    // image counts are cluster-wide: when they move, every node with images is copied again
                    NodeInfo c = n.copy();
                    setImageStates(c);
                    snapshot.replace(c, n.generation());
                }
            }
            snapshot.setGeneration(generation);
            snapshot.setImageVersion(imageVersion);
        }
    }

    /** A copy of one node as the cache sees it now, or null. */
    public NodeInfo node(String name) {
        synchronized (lock) {
            NodeInfo n = nodes.get(name);
            return n == null ? null : n.copy();
        }
    }

    public int nodeCount() {
        synchronized (lock) {
            return countWithNode();
        }
    }

    public int podCount() {
        synchronized (lock) {
            return pods.size();
        }
    }

    public int assumedCount() {
        synchronized (lock) {
            return (int) pods.values().stream().filter(s -> s.assumed).count();
        }
    }

    private int countWithNode() {
        return withNode;
    }

    private NodeInfo nodeFor(String name) {
        return nodes.computeIfAbsent(name, k -> {
            setGeneration = generation + 1;
            return NodeInfo.withoutNode(k);
        });
    }

    private void removeFromNode(PodState s) {
        NodeInfo n = nodes.get(s.node);
        if (n != null) {
            n.removePod(s.pod.uid());
            touch(n);
            if (n.node() == null && n.pods().isEmpty()) {
                nodes.remove(s.node);
                forgetGeneration(n);
                setGeneration = generation;
            }
        }
    }

    private void touch(NodeInfo n) {
        forgetGeneration(n);
        n.setGeneration(++generation);
        byGeneration.put(n.generation(), n);
    }

    private void forgetGeneration(NodeInfo n) {
        byGeneration.remove(n.generation(), n);
    }

    private static boolean terminated(PodInfo pod) {
        var status = pod.pod().getStatus();
        String phase = status == null ? null : status.getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }
}
