package io.hotsched.core.extender;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;

/**
 * upstream's {@code k8s.io/kube-scheduler/extender/v1} types. The Go structs have no json tags,
 * so their fields go on the wire under the Go names (capitalised), nil as {@code null}; answers
 * are read case-insensitively, as Go's decoder does.
 */
final class Wire {

    private Wire() {}

    /** POST body of filter and prioritize: {@code Nodes} without nodeCacheCapable, {@code NodeNames} with it. */
    record ExtenderArgs(
            @JsonProperty("Pod") Pod pod,
            @JsonProperty("Nodes") NodeList nodes,
            @JsonProperty("NodeNames") List<String> nodeNames) {}

    record ExtenderFilterResult(
            @JsonProperty("Nodes") NodeList nodes,
            @JsonProperty("NodeNames") List<String> nodeNames,
            @JsonProperty("FailedNodes") Map<String, String> failedNodes,
            @JsonProperty("FailedAndUnresolvableNodes") Map<String, String> failedAndUnresolvableNodes,
            @JsonProperty("Error") String error) {}

    /** One element of the prioritize answer, a JSON array (HostPriorityList). */
    record HostPriority(
            @JsonProperty("Host") String host,
            @JsonProperty("Score") long score) {}

    record ExtenderBindingArgs(
            @JsonProperty("PodName") String podName,
            @JsonProperty("PodNamespace") String podNamespace,
            @JsonProperty("PodUID") String podUID,
            @JsonProperty("Node") String node) {}

    record ExtenderBindingResult(@JsonProperty("Error") String error) {}

    record Victims(
            @JsonProperty("Pods") List<Pod> pods,
            @JsonProperty("NumPDBViolations") long numPDBViolations) {}

    record MetaPod(@JsonProperty("UID") String uid) {}

    record MetaVictims(
            @JsonProperty("Pods") List<MetaPod> pods,
            @JsonProperty("NumPDBViolations") long numPDBViolations) {}

    /** The scheduler sends NodeNameToMetaVictims with nodeCacheCapable, NodeNameToVictims without. */
    record ExtenderPreemptionArgs(
            @JsonProperty("Pod") Pod pod,
            @JsonProperty("NodeNameToVictims") Map<String, Victims> nodeNameToVictims,
            @JsonProperty("NodeNameToMetaVictims") Map<String, MetaVictims> nodeNameToMetaVictims) {}

    /** The extender always answers with MetaVictims. */
    record ExtenderPreemptionResult(
            @JsonProperty("NodeNameToMetaVictims") Map<String, MetaVictims> nodeNameToMetaVictims) {}
}
