package io.hotsched.bench.perf;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;

/** Where a workload's objects go and where its scheduled pods are counted: an API server, or the scheduler in-process. */
interface Target extends AutoCloseable {

    void namespace(String name);

    /** Creates a Node, Pod or Service (name and namespace set). */
    void create(HasMetadata object);

    /** Deletes an object; a pod with finalizers is marked for deletion and stays, as the API server does. */
    void delete(HasMetadata object);

    /** Pods of {@code namespace} scheduled so far. */
    int scheduled(String namespace);

    /**
     * Pods of {@code namespace} with a PodScheduled condition, whatever its status: scheduled, found
     * unschedulable, or gated (kube-apiserver sets SchedulingGated on a gated pod's creation).
     */
    int attempted(String namespace);

    /** CPU seconds the scheduler has used so far (the whole JVM's for the in-process target). */
    double schedulerCpuSeconds();

    /** The scheduler's live heap after a full GC, in MiB, or -1. */
    long liveHeapMiB();

    /** The scheduler's peak resident memory in MiB, or -1. */
    long peakRssMiB();

    /** The scheduler's CPU seconds so far per group of threads ({@link ThreadCpu}); empty when it has no process of its own. */
    default Map<String, Double> schedulerThreadCpu() {
        return Map.of();
    }

    /** The scheduler's {@code /metrics} page now (Prometheus text), or null when it has none. */
    default String metricsText() {
        return null;
    }
}
