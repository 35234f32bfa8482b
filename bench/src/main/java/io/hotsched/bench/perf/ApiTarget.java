package io.hotsched.bench.perf;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hotsched.embedded.EmbeddedApiServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The embedded API server in this JVM and the distribution's scheduler in its own, over HTTP.
 * Scheduled pods are counted where the API server stores each binding: a pod watch in the runner
 * would be one more watcher that the server encodes every pod event for, on the 2 cores measured.
 */
final class ApiTarget implements Target {

    private final EmbeddedApiServer api;
    private final SchedulerProcess scheduler;
    private final KubernetesClient client;
    private final Path deploy;
    private BundleSwapper swapper;

    ApiTarget(Path dist, Path work, String jvmOptions, String extraConfig) throws Exception {
        deploy = work.resolve("hotsched/deploy");
        api = new EmbeddedApiServer().start(0);
        try {
            scheduler = SchedulerProcess.start(dist, work, api.kubeconfig(), jvmOptions, extraConfig);
        } catch (Exception e) {
            api.close();
            throw e;
        }
        client = EmbeddedApiServer.newClient(api.url());
    }

    Path schedulerLog() {
        return scheduler.log;
    }

    /** Starts upgrading the default plugins' bundle every {@code periodMillis}, in place or side by side (see {@link BundleSwapper}). */
    void swapDefaultPluginsEvery(long periodMillis, boolean sideBySide) throws IOException {
        swapper =
                new BundleSwapper(deploy, "io.hotsched.plugins.defaults-0.1.0-SNAPSHOT.jar", periodMillis, sideBySide);
    }

    int swaps() {
        return swapper == null ? 0 : swapper.swaps();
    }

    @Override
    public void namespace(String name) {
        ensureNamespace(client, name);
    }

    static void ensureNamespace(KubernetesClient client, String name) {
        if (client.namespaces().withName(name).get() == null) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(name)
                            .endMetadata()
                            .build())
                    .create();
        }
    }

    @Override
    public void create(HasMetadata object) {
        client.resource(object).create();
    }

    @Override
    public void delete(HasMetadata object) {
        client.resource(object).delete();
    }

    @Override
    public int scheduled(String namespace) {
        return api.bindsIn(namespace);
    }

    @Override
    public int attempted(String namespace) {
        return attempted(client, namespace);
    }

    /** Counts from a LIST: a barrier's occasional question, not worth a watch beside the measured ones. */
    static int attempted(KubernetesClient client, String namespace) {
        return (int) client.pods().inNamespace(namespace).list().getItems().stream()
                .filter(InProcessTarget::hasPodScheduled)
                .count();
    }

    @Override
    public double schedulerCpuSeconds() {
        return scheduler.cpuSeconds();
    }

    @Override
    public long liveHeapMiB() {
        return scheduler.liveHeapMiB();
    }

    @Override
    public long peakRssMiB() {
        return scheduler.peakRssMiB();
    }

    @Override
    public Map<String, Double> schedulerThreadCpu() {
        return ThreadCpu.of(scheduler.pid());
    }

    @Override
    public String metricsText() {
        return scheduler.metrics();
    }

    @Override
    public void close() throws Exception {
        if (swapper != null) {
            swapper.close();
        }
        client.close();
        scheduler.close();
        api.close();
    }
}
