package io.hotsched.api.framework;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A node with the pods on it (bound and assumed) and the sums plugins need, kept as numbers.
 *
 * <p>The framework hands plugins NodeInfos from a snapshot taken at the start of the attempt:
 * they must be treated as read-only. A plugin that needs to try "what if" (preemption's dry run)
 * works on a {@link #copy()}. Not thread-safe for writing.
 */
public final class NodeInfo {

    private Node node;
    private final String name;
    private Resource allocatable = Resource.ZERO;
    private Resource requested = Resource.ZERO;
    private Resource nonZeroRequested = Resource.ZERO;
    private final List<PodInfo> pods;
    private final List<PodInfo> podsView;
    private final List<HostPort> usedPorts;
    private List<PodInfo> podsWithAffinity = List.of();
    private List<PodInfo> podsWithRequiredAntiAffinity = List.of();
    private Map<String, ImageStateSummary> imageStates = Map.of();
    private long generation;
    private Map<String, String> labels = Map.of();
    /** Replaced, never changed, when a pod with claims comes or goes: copies share it. */
    private Map<String, Integer> pvcRefCounts = Map.of();

    /** A NodeInfo for {@code node}, with no pods yet. */
    public NodeInfo(Node node) {
        this(node.getMetadata().getName(), new ArrayList<>(), new ArrayList<>());
        setNode(node);
    }

    /**
     * A NodeInfo for a node whose object is not known (yet): pods can be counted on it, but it has
     * no allocatable resources and {@link #node()} is null.
     */
    public static NodeInfo withoutNode(String name) {
        return new NodeInfo(name, new ArrayList<>(), new ArrayList<>());
    }

    private NodeInfo(String name, List<PodInfo> pods, List<HostPort> ports) {
        this.name = name;
        this.pods = pods;
        this.podsView = Collections.unmodifiableList(pods);
        this.usedPorts = ports;
    }

    /** The node object; null for a node known only from pods assigned to it. */
    public Node node() {
        return node;
    }

    public String name() {
        return name;
    }

    /**
     * The node's labels, read once when the node is set: immutable, with interned strings, so
     * selectors match them by identity; empty without a node or labels.
     */
    public Map<String, String> labels() {
        return labels;
    }

    /** {@code status.allocatable}, parsed. */
    public Resource allocatable() {
        return allocatable;
    }

    /** The sum of the pods' effective requests. */
    public Resource requested() {
        return requested;
    }

    /** The sum of the pods' non-zero cpu and memory requests (for scoring). */
    public Resource nonZeroRequested() {
        return nonZeroRequested;
    }

    /** The pods on the node, bound or assumed; unmodifiable. */
    public List<PodInfo> pods() {
        return podsView;
    }

    /** The pods on the node with any pod (anti-)affinity term (InterPodAffinity reads only these). */
    public List<PodInfo> podsWithAffinity() {
        return podsWithAffinity;
    }

    /** The pods on the node with required anti-affinity terms (the symmetric check reads only these). */
    public List<PodInfo> podsWithRequiredAntiAffinity() {
        return podsWithRequiredAntiAffinity;
    }

    /**
     * How many of the node's pods use each PersistentVolumeClaim, by {@code namespace/name}
     * (upstream's PVCRefCounts); unmodifiable, empty when none does.
     *
     * @since 1.7
     */
    public Map<String, Integer> pvcRefCounts() {
        return pvcRefCounts;
    }

    /** Whether {@code port} conflicts with a host port already used on this node. */
    public boolean hostPortConflicts(HostPort port) {
        for (HostPort used : usedPorts) {
            if (used.conflictsWith(port)) {
                return true;
            }
        }
        return false;
    }

    /** Host ports in use on the node; unmodifiable. */
    public List<HostPort> usedPorts() {
        return Collections.unmodifiableList(usedPorts);
    }

    /** Images present on the node by normalised name. */
    public Map<String, ImageStateSummary> imageStates() {
        return imageStates;
    }

    /** Increases whenever the node or its pods change; snapshots copy only NodeInfos that moved. */
    public long generation() {
        return generation;
    }

    /**
     * Replaces the node object (its allocatable is parsed again); an allocatable that cannot be read
     * throws an IllegalArgumentException naming the resource and the value, and nothing changes.
     */
    public void setNode(Node newNode) {
        if (!name.equals(newNode.getMetadata().getName())) {
            throw new IllegalArgumentException("node " + newNode.getMetadata().getName() + " is not " + name);
        }
        NodeStatus status = newNode.getStatus();
        // parsed first: a node that cannot be read leaves this NodeInfo as it was
        Resource parsed = Resource.parse(status == null ? null : status.getAllocatable());
        this.node = newNode;
        this.labels = InternedLabels.of(newNode.getMetadata().getLabels());
        this.allocatable = parsed;
    }

    /** Forgets the node object, keeping the pods (a node deleted while pods still name it). */
    public void clearNode() {
        this.node = null;
        this.labels = Map.of();
        this.allocatable = Resource.ZERO;
    }

    public void addPod(PodInfo pod) {
        pods.add(pod);
        requested = requested.plus(pod.requests());
        nonZeroRequested = nonZeroRequested.plus(pod.nonZeroRequests());
        usedPorts.addAll(pod.hostPorts());
        if (pod.hasAffinity()) {
            podsWithAffinity = plus(podsWithAffinity, pod);
        }
        if (!pod.requiredAntiAffinityTerms().isEmpty()) {
            podsWithRequiredAntiAffinity = plus(podsWithRequiredAntiAffinity, pod);
        }
        if (!pod.claimNames().isEmpty()) {
            countClaims(pod, 1);
        }
    }

    private void countClaims(PodInfo pod, int delta) {
        Map<String, Integer> counts = new HashMap<>(pvcRefCounts);
        for (String claim : pod.claimNames()) {
            counts.merge(pod.namespace() + "/" + claim, delta, (a, b) -> a + b == 0 ? null : a + b);
        }
        pvcRefCounts = counts.isEmpty() ? Map.of() : Collections.unmodifiableMap(counts);
    }

    private static List<PodInfo> plus(List<PodInfo> l, PodInfo p) {
        List<PodInfo> n = new ArrayList<>(l.size() + 1);
        n.addAll(l);
        n.add(p);
        return Collections.unmodifiableList(n);
    }

    private static List<PodInfo> minus(List<PodInfo> l, String uid) {
        List<PodInfo> n = new ArrayList<>(l);
        n.removeIf(p -> p.uid().equals(uid));
        return n.isEmpty() ? List.of() : Collections.unmodifiableList(n);
    }

    /** Removes the pod with {@code uid}; false when it is not on this node. */
    public boolean removePod(String uid) {
        for (int i = 0; i < pods.size(); i++) {
            PodInfo p = pods.get(i);
            if (p.uid().equals(uid)) {
                pods.remove(i);
                requested = requested.minus(p.requests());
                nonZeroRequested = nonZeroRequested.minus(p.nonZeroRequests());
                for (HostPort port : p.hostPorts()) {
                    usedPorts.remove(port);
                }
                if (p.hasAffinity()) {
                    podsWithAffinity = minus(podsWithAffinity, uid);
                }
                if (!p.requiredAntiAffinityTerms().isEmpty()) {
                    podsWithRequiredAntiAffinity = minus(podsWithRequiredAntiAffinity, uid);
                }
                if (!p.claimNames().isEmpty()) {
                    countClaims(p, -1);
                }
                return true;
            }
        }
        return false;
    }

    public void setImageStates(Map<String, ImageStateSummary> states) {
        this.imageStates = Map.copyOf(states);
    }

    public void setGeneration(long generation) {
        this.generation = generation;
    }

    /** An independent copy: changing it does not change this NodeInfo. */
    public NodeInfo copy() {
        NodeInfo c = new NodeInfo(name, new ArrayList<>(pods), new ArrayList<>(usedPorts));
        c.node = node;
        c.labels = labels;
        c.allocatable = allocatable;
        c.requested = requested;
        c.nonZeroRequested = nonZeroRequested;
        c.imageStates = imageStates;
        c.podsWithAffinity = podsWithAffinity;
        c.podsWithRequiredAntiAffinity = podsWithRequiredAntiAffinity;
        c.pvcRefCounts = pvcRefCounts;
        c.generation = generation;
        return c;
    }

    @Override
    public String toString() {
        return name + " (" + pods.size() + " pods, requested " + requested + " of " + allocatable + ")";
    }
}
