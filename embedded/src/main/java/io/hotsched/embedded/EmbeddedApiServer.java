package io.hotsched.embedded;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.hotsched.embedded.standins.StandIn;
import io.hotsched.embedded.standins.StandIns;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Kubernetes API server on 127.0.0.1, in this process: fabric8's mock server in CRUD mode with
 * {@link SchedulerDispatcher}. Clients talk to it over HTTP exactly as to a real cluster.
 */
public final class EmbeddedApiServer implements AutoCloseable {

    /** Koordinator's custom resources, served like built-in kinds. */
    static final List<CustomResourceDefinitionContext> CRDS = List.of(
            new CustomResourceDefinitionContext.Builder()
                    .withGroup("slo.koordinator.sh")
                    .withVersion("v1alpha1")
                    .withKind("NodeMetric")
                    .withPlural("nodemetrics")
                    .withScope("Cluster")
                    .build(),
            new CustomResourceDefinitionContext.Builder()
                    .withGroup("scheduling.koordinator.sh")
                    .withVersion("v1alpha1")
                    .withKind("Device")
                    .withPlural("devices")
                    .withScope("Cluster")
                    .build());

    /** Held so the level stays set: the mock logs every request at INFO, on its one event loop thread. */
    private static final java.util.logging.Logger REQUEST_LOG =
            quiet(java.util.logging.Logger.getLogger(MockWebServer.class.getName()));

    private static java.util.logging.Logger quiet(java.util.logging.Logger l) {
        l.setLevel(java.util.logging.Level.WARNING);
        return l;
    }

    private final ApiWebServer web = new ApiWebServer();
    private final KubernetesMockServer server;
    private final SchedulerDispatcher dispatcher;
    private final ScheduledExecutorService housekeeping = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "embedded-apiserver-housekeeping");
        t.setDaemon(true);
        return t;
    });
    private KubernetesClient client;
    private KubeletStandIn kubelet;
    private StandIns controllers;

    public EmbeddedApiServer() {
        this(true);
    }

    /** @param indexed false runs the stock store's scans, to compare the two (IndexedStoreBehaviourTest, the benchmark) */
    public EmbeddedApiServer(boolean indexed) {
        this(indexed, EventLog.DEFAULT_CAPACITY, Duration.ofMillis(Watches.BOOKMARK_MILLIS));
    }

    /**
     * @param eventLogCapacity how many of the latest writes watches and lists can go back over
     * @param bookmarkInterval how often a watch that allows bookmarks gets one
     */
    EmbeddedApiServer(boolean indexed, int eventLogCapacity, Duration bookmarkInterval) {
        this.dispatcher = new SchedulerDispatcher(CRDS, indexed, eventLogCapacity, bookmarkInterval.toMillis());
        this.server = new KubernetesMockServer(new Context(), web, new HashMap<>(), dispatcher, false);
        CRDS.forEach(server::expectCustomResource);
    }

    /** Starts on 127.0.0.1; port 0 picks a free one. */
    public EmbeddedApiServer start(int port) throws IOException {
        server.init(InetAddress.getByName("127.0.0.1"), port);
        return this;
    }

    /**
     * Writes an audit log of bindings and Lease writes to {@code file} from now on, as
     * kube-apiserver's {@code --audit-log-path} would (see {@code AuditLog}).
     */
    public void auditTo(java.nio.file.Path file) throws IOException {
        dispatcher.audit(new AuditLog(file, dispatcher::userOf));
    }

    public int port() {
        return web.getPort();
    }

    public String url() {
        return "http://127.0.0.1:" + port();
    }

    /**
     * Pods of {@code namespace} bound through the binding subresource so far, counted where the
     * binding is stored (what a pod watch would count, without being one more watcher).
     */
    public int bindsIn(String namespace) {
        return dispatcher.bindsIn(namespace);
    }

    /** The watches open now (plain HTTP, WebSocket). */
    int openWatches() {
        return dispatcher.openWatches();
    }

    /** Waits until the number of open watches satisfies {@code test}, at most {@code millis}; whether it does. */
    boolean awaitOpenWatches(java.util.function.IntPredicate test, long millis) throws InterruptedException {
        return dispatcher.awaitOpenWatches(test, millis);
    }

    /** How many named look-ups the store's index answered. */
    public long indexHits() {
        return dispatcher.indexHits.get();
    }

    /** A client for this server (HTTP/1.1, as kubectl and the scheduler use it). */
    public synchronized KubernetesClient client() {
        if (client == null) {
            client = newClient(url());
        }
        return client;
    }

    public static KubernetesClient newClient(String url) {
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(url)
                .withTrustCerts(true)
                .withHttp2Disable(true)
                .withNamespace("default")
                .withRequestTimeout(60_000)
                .build();
        return new KubernetesClientBuilder()
                .withConfig(config)
                .withHttpClientFactory(new JdkHttpClientFactory())
                .build();
    }

    /**
     * Creates every object of the {@code *.yaml} files in {@code dir} (multi-document YAML),
     * namespaces and nodes first, pods last.
     *
     * @return the number of objects created
     */
    public int seed(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return create(files.filter(
                            p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                    .sorted()
                    .toList());
        }
    }

    /**
     * Creates every object of {@code files} (multi-document YAML), definitions, namespaces and
     * nodes first, pods last.
     *
     * @return the number of objects created
     */
    public int create(List<Path> files) throws IOException {
        List<HasMetadata> objects = new ArrayList<>();
        for (Path f : files) {
            try (InputStream in = Files.newInputStream(f)) {
                objects.addAll(client().load(in).items());
            } catch (RuntimeException e) {
                throw new IOException(f + ": " + e.getMessage(), e);
            }
        }
        objects.sort((a, b) -> Integer.compare(order(a), order(b)));
        for (HasMetadata o : objects) {
            client().resource(o).create();
        }
        return objects.size();
    }

    private static int order(HasMetadata o) {
        return switch (o.getKind()) {
            case "CustomResourceDefinition", "Namespace" -> 0;
            case "PriorityClass" -> 1;
            case "Node" -> 2;
            case "Pod" -> 9;
            default -> 5;
        };
    }

    /**
     * Plays the node agents and the controllers: every stand-in of {@link StandIn} (see
     * {@link #startStandIns}).
     */
    public void startKubelet() {
        startStandIns(EnumSet.allOf(StandIn.class));
    }

    /**
     * Plays the stand-ins among {@code on}: the kubelet marks bound pods Running, as a kubelet would,
     * so listings look like a cluster; the koordlet reports every NodeMetric again every 30 s (a fresh
     * {@code status.updateTime}), as Koordinator's koordlet would, so load-aware plugins keep trusting
     * the seeded usage; the workload controllers and the garbage collector are {@link StandIns}.
     */
    public void startStandIns(Set<StandIn> on) {
        if (on.contains(StandIn.KUBELET)) {
            kubelet = new KubeletStandIn(client());
            kubelet.start();
        }
        controllers = StandIns.start(client(), on);
        if (!on.contains(StandIn.KOORDLET)) {
            return;
        }
        KoordletStandIn koordlet = new KoordletStandIn(client(), java.time.Clock.systemUTC());
        housekeeping.scheduleWithFixedDelay(
                () -> {
                    try {
                        koordlet.report();
                    } catch (RuntimeException e) {
                        // the server is stopping, or NodeMetric is not served: the next round tries again
                    }
                },
                0,
                30,
                TimeUnit.SECONDS);
    }

    /** When the requests a fault test counts arrived (off until started). */
    public RequestLog requests() {
        return dispatcher.requests();
    }

    /** The faults this server injects into its answers (none until a rule is added). */
    public ApiFaults faults() {
        return dispatcher.faults();
    }

    /**
     * Ends every watch stream at once, as a restarting API server or a dropping load balancer
     * does. {@code compact}: first forgets the history of writes, as etcd's compaction does, so a
     * watch resumed from its last version is answered 410 Expired and its informer lists anew.
     */
    public void dropWatches(boolean compact) {
        if (compact) {
            dispatcher.compact();
        }
        web.endWatches();
    }

    /** The next {@code times} bind requests fail with HTTP {@code code} (for tests of retries). */
    public void failNextBinds(int times, int code) {
        dispatcher.failNextBinds(times, code);
    }

    /** A kubeconfig that points kubectl at this server. */
    public String kubeconfig() {
        return String.join(
                "\n",
                "apiVersion: v1",
                "kind: Config",
                "clusters:",
                "- name: hotsched",
                "  cluster:",
                "    server: " + url(),
                "contexts:",
                "- name: hotsched",
                "  context:",
                "    cluster: hotsched",
                "    namespace: default",
                "    user: hotsched",
                "current-context: hotsched",
                "users:",
                "- name: hotsched",
                "  user: {}",
                "");
    }

    /** Objects per kind in the store, for messages. */
    public Map<String, Integer> counts() {
        Map<String, Integer> c = new HashMap<>();
        c.put("nodes", client().nodes().list().getItems().size());
        c.put("pods", client().pods().inAnyNamespace().list().getItems().size());
        return c;
    }

    @Override
    public void close() {
        housekeeping.shutdownNow();
        if (kubelet != null) {
            kubelet.close();
        }
        if (controllers != null) {
            controllers.close();
        }
        if (client != null) {
            client.close();
        }
        try {
            server.destroy();
        } catch (IllegalStateException e) {
            // the mock server waits a bounded time for open connections (watches) to drain; on a busy
            // machine that can run out while stopping, when there is nothing left to keep
            System.err.println(
                    "hotsched: the embedded API server did not stop in time (" + e.getMessage() + "); going on");
        }
    }
}
