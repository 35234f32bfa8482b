package io.hotsched.itests;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.hotsched.testing.Nodes;
import java.io.IOException;
import java.util.Map;
import org.junit.After;
import org.junit.Before;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;

/**
 * For tests that run hotsched as shipped (Felix, the real bundles, the Kubernetes bundle) against
 * the embedded API server over HTTP, and count from the API server's side.
 */
public abstract class KubeClusterSupport extends SchedulerITSupport {

    protected KubernetesClient client;

    /**
     * The platform with the Kubernetes bundle connected to a fresh embedded API server, its write
     * limit lifted (kube-scheduler's 50/s would make the API writes, not the swaps, what is tested).
     */
    protected static Option[] kubePlatform(String schedulerYaml) throws IOException {
        return kubePlatform(schedulerYaml, Map.of());
    }

    /** As {@link #kubePlatform(String)}, with more files for etc/ (name to content). */
    protected static Option[] kubePlatform(String schedulerYaml, Map<String, String> etcFiles) throws IOException {
        return kubePlatform(schedulerYaml, etcFiles, new String[0]);
    }

    /**
     * As {@link #kubePlatform(String, Map)}, with the API server's controller stand-ins named
     * ({@code StandIn} constant names, e.g. RESOURCE_CLAIM).
     */
    protected static Option[] kubePlatform(String schedulerYaml, Map<String, String> etcFiles, String... standIns)
            throws IOException {
        String kube = "qps = 0\nburst = 100\nmaxConcurrentRequests = 64\ncomponent = hotsched\nreport = false\n";
        Map<String, String> etc = new java.util.HashMap<>(etcFiles);
        etc.put("scheduler.yaml", schedulerYaml);
        etc.put("io.hotsched.kube.cfg", kube);
        return PlatformOptions.platform(etc, true, ApiServerOutside.start(standIns));
    }

    @Override
    @Configuration
    public Option[] configuration() throws IOException {
        return kubePlatform(schedulerYaml());
    }

    @Before
    public void connectClient() {
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(context.getProperty("hotsched.master"))
                .withHttp2Disable(true)
                .withNamespace("default")
                .build();
        config.setMaxConcurrentRequests(64);
        config.setMaxConcurrentRequestsPerHost(64);
        client = new KubernetesClientBuilder().withConfig(config).build();
    }

    @After
    public void closeClient() {
        if (client != null) {
            client.close();
        }
    }

    /** The test plugins bundle (ItestSort, ItestFit, ItestBinder, ItestVersion) as built. */
    protected static byte[] itestPlugins() throws IOException {
        return java.nio.file.Files.readAllBytes(
                java.nio.file.Path.of(System.getProperty("hotsched.itest.plugins.bundle")));
    }

    /** Namespace "load", {@code nodes} nodes of 32 cpus, and the shipped default plugins in deploy/. */
    protected void loadCluster(int nodes) throws IOException {
        namespace("load");
        nodes("node-", nodes, "32");
        dropDefaultPlugins();
    }

    protected void namespace(String name) {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .create();
    }

    /** {@code count} ready nodes {@code prefix}0..N-1 with {@code cpu} cpus and 64Gi. */
    protected void nodes(String prefix, int count, String cpu) {
        for (int i = 0; i < count; i++) {
            Node n = Nodes.node(prefix + i).cpu(cpu).memory("64Gi").pods(500).build();
            client.nodes().resource(n).create();
        }
    }
}
