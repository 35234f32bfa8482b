package io.hotsched.api.framework;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinity;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodAntiAffinity;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A pod with what every plugin needs from it computed once, when the pod enters the scheduler:
 * its requests as numbers, its non-zero requests for scoring, its host ports, its priority, its
 * pod (anti-)affinity terms compiled.
 * Immutable; plugins must not modify the {@link Pod} either.
 */
public final class PodInfo {

    private final Pod pod;
    private final String namespace;
    private final Map<String, String> labels;
    private final String name;
    private final String uid;
    private final int priority;
    private final Resource requests;
    private final Resource nonZeroRequests;
    private final List<HostPort> hostPorts;
    private final List<AffinityTerm> requiredAffinity;
    private final List<AffinityTerm> requiredAntiAffinity;
    private final List<AffinityTerm> preferredAffinity;
    private final List<AffinityTerm> preferredAntiAffinity;
    private final List<String> claimNames;

    private PodInfo(Pod pod) {
        this.pod = pod;
        ObjectMeta meta = pod.getMetadata();
        // interned: plugins compare every pod's namespace per attempt, and equal instances compare without reading the
        // text
        this.namespace = meta == null
                        || meta.getNamespace() == null
                        || meta.getNamespace().isEmpty()
                ? "default"
                : meta.getNamespace().intern();
        this.labels = InternedLabels.of(meta == null ? null : meta.getLabels());
        this.name = meta == null ? "" : String.valueOf(meta.getName());
        this.uid = meta == null || meta.getUid() == null ? namespace + "/" + name : meta.getUid();
        PodSpec spec = pod.getSpec();
        this.priority = spec == null || spec.getPriority() == null ? 0 : spec.getPriority();
        this.requests = PodRequests.compute(spec, false);
        Resource nz = PodRequests.compute(spec, true);
        this.nonZeroRequests = Resource.of(nz.milliCpu(), nz.memory());
        this.hostPorts = hostPortsOf(spec);
        this.claimNames = claimNamesOf(spec, name);
        Affinity affinity = spec == null ? null : spec.getAffinity();
        PodAffinity pa = affinity == null ? null : affinity.getPodAffinity();
        PodAntiAffinity paa = affinity == null ? null : affinity.getPodAntiAffinity();
        Map<String, String> labels = labels();
        this.requiredAffinity =
                required(pa == null ? null : pa.getRequiredDuringSchedulingIgnoredDuringExecution(), labels);
        this.requiredAntiAffinity =
                required(paa == null ? null : paa.getRequiredDuringSchedulingIgnoredDuringExecution(), labels);
        this.preferredAffinity =
                preferred(pa == null ? null : pa.getPreferredDuringSchedulingIgnoredDuringExecution(), labels);
        this.preferredAntiAffinity =
                preferred(paa == null ? null : paa.getPreferredDuringSchedulingIgnoredDuringExecution(), labels);
    }

    private List<AffinityTerm> required(List<PodAffinityTerm> terms, Map<String, String> labels) {
        if (terms == null || terms.isEmpty()) {
            return List.of();
        }
        List<AffinityTerm> out = new ArrayList<>(terms.size());
        for (PodAffinityTerm t : terms) {
            out.add(AffinityTerm.of(t, namespace, labels, 0));
        }
        return Collections.unmodifiableList(out);
    }

    private List<AffinityTerm> preferred(List<WeightedPodAffinityTerm> terms, Map<String, String> labels) {
        if (terms == null || terms.isEmpty()) {
            return List.of();
        }
        List<AffinityTerm> out = new ArrayList<>(terms.size());
        for (WeightedPodAffinityTerm t : terms) {
            out.add(AffinityTerm.of(
                    t.getPodAffinityTerm(), namespace, labels, t.getWeight() == null ? 0 : t.getWeight()));
        }
        return Collections.unmodifiableList(out);
    }

    /** Computes the pod's derived values. */
    public static PodInfo of(Pod pod) {
        return new PodInfo(pod);
    }

    public Pod pod() {
        return pod;
    }

    /** The pod's namespace; {@code default} when it names none (null or empty), as the API server would. */
    public String namespace() {
        return namespace;
    }

    public String name() {
        return name;
    }

    /** {@code namespace/name}, the pod's key in caches and messages. */
    public String key() {
        return namespace + "/" + name;
    }

    /** The pod's UID, or its key when it has none (pods built in tests). */
    public String uid() {
        return uid;
    }

    /** {@code spec.priority}, 0 when unset. */
    public int priority() {
        return priority;
    }

    /**
     * Effective requests (init containers, sidecars and overhead counted as upstream does); pod-level
     * {@code spec.resources.requests} replace the containers' sum for cpu, memory and hugepages.
     */
    public Resource requests() {
        return requests;
    }

    /**
     * Cpu and memory requests for scoring: a container without a cpu request counts 100m, without
     * a memory request 200Mi.
     */
    public Resource nonZeroRequests() {
        return nonZeroRequests;
    }

    /** Host ports (> 0) of the app containers. */
    public List<HostPort> hostPorts() {
        return hostPorts;
    }

    /** Required pod affinity terms, compiled. */
    public List<AffinityTerm> requiredAffinityTerms() {
        return requiredAffinity;
    }

    /** Required pod anti-affinity terms, compiled. */
    public List<AffinityTerm> requiredAntiAffinityTerms() {
        return requiredAntiAffinity;
    }

    /** Preferred pod affinity terms with their weights. */
    public List<AffinityTerm> preferredAffinityTerms() {
        return preferredAffinity;
    }

    /** Preferred pod anti-affinity terms with their weights. */
    public List<AffinityTerm> preferredAntiAffinityTerms() {
        return preferredAntiAffinity;
    }

    /** Whether the pod has any pod affinity or anti-affinity term. */
    public boolean hasAffinity() {
        return !requiredAffinity.isEmpty()
                || !requiredAntiAffinity.isEmpty()
                || !preferredAffinity.isEmpty()
                || !preferredAntiAffinity.isEmpty();
    }

    /** {@code spec.nodeName}, or null when the pod is not assigned. */
    public String nodeName() {
        PodSpec spec = pod.getSpec();
        String n = spec == null ? null : spec.getNodeName();
        return n == null || n.isEmpty() ? null : n;
    }

    /** {@code spec.schedulerName}, defaulting to {@code default-scheduler}. */
    public String schedulerName() {
        PodSpec spec = pod.getSpec();
        String n = spec == null ? null : spec.getSchedulerName();
        return n == null || n.isEmpty() ? "default-scheduler" : n;
    }

    /** The pod's labels (immutable, interned strings); empty when none. */
    public Map<String, String> labels() {
        return labels;
    }

    /**
     * The names of the PersistentVolumeClaims the pod's volumes use, in volume order: a
     * {@code persistentVolumeClaim} volume's {@code claimName}, and for a generic ephemeral volume
     * the claim its controller makes, {@code <pod>-<volume>}. Empty when the pod uses none.
     *
     * @since 1.7
     */
    public List<String> claimNames() {
        return claimNames;
    }

    private static List<String> claimNamesOf(PodSpec spec, String podName) {
        if (spec == null || spec.getVolumes() == null || spec.getVolumes().isEmpty()) {
            return List.of();
        }
        List<String> names = null;
        for (Volume v : spec.getVolumes()) {
            String claim = v.getPersistentVolumeClaim() != null
                    ? String.valueOf(v.getPersistentVolumeClaim().getClaimName())
                    : v.getEphemeral() != null ? podName + "-" + v.getName() : null;
            if (claim != null) {
                if (names == null) {
                    names = new ArrayList<>(2);
                }
                names.add(claim);
            }
        }
        return names == null ? List.of() : Collections.unmodifiableList(names);
    }

    private static List<HostPort> hostPortsOf(PodSpec spec) {
        if (spec == null || spec.getContainers() == null) {
            return List.of();
        }
        List<HostPort> ports = null;
        for (Container c : spec.getContainers()) {
            if (c.getPorts() == null) {
                continue;
            }
            for (ContainerPort p : c.getPorts()) {
                if (p.getHostPort() != null && p.getHostPort() > 0) {
                    if (ports == null) {
                        ports = new ArrayList<>();
                    }
                    ports.add(new HostPort(p.getHostIP(), p.getProtocol(), p.getHostPort()));
                }
            }
        }
        return ports == null ? List.of() : Collections.unmodifiableList(ports);
    }

    @Override
    public String toString() {
        return key();
    }
}
