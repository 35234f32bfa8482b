package io.hotsched.testkit;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.cluster.ClusterBackend;
import io.hotsched.api.cluster.ClusterEvents;
import io.hotsched.launcher.PropertiesFile;
import io.hotsched.launcher.StartLevels;
import io.hotsched.testing.InMemoryCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.apache.felix.framework.FrameworkFactory;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.startlevel.BundleStartLevel;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.util.tracker.ServiceTracker;

/**
 * A real hotsched platform in this JVM, without Pax Exam: Felix with a distribution's platform
 * bundles ({@code bundle/}, at the start levels of its {@code etc/startlevels.properties}), its
 * shipped plugins ({@code deploy/}) and the plugin bundles under test, scheduling an in-memory
 * cluster instead of a Kubernetes API server.
 *
 * <p>The API, the testing bundle and the fabric8 model come from the test's class path (the
 * system bundle exports them), so the pods and nodes a test builds are the ones the plugins see.
 * The copied {@code etc/} is the distribution's, except that {@code /metrics} is not served.
 *
 * <pre>{@code
 * try (FelixPlatform p = FelixPlatform.boot(Path.of("/opt/hotsched"), schedulerYaml, Path.of("target/my-plugin.jar"))) {
 *     p.cluster().addNode(Nodes.node("n1").cpu("4").build());
 *     Placement placed = p.schedule(Pods.pod("web").cpu("1").build());
 * }
 * }</pre>
 */
public final class FelixPlatform implements AutoCloseable {

    /** Bundles of {@code bundle/} that only the Kubernetes connection needs; the in-memory cluster replaces it. */
    private static final Set<String> CONNECTION = Set.of("io.hotsched.kube", "io.hotsched.fabric8");

    private static final Duration WAIT = Duration.ofSeconds(60);

    private final Path home;
    private final Framework framework;
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final Outcomes outcomes = new Outcomes(cluster);

    private FelixPlatform(Path home, Framework framework) {
        this.home = home;
        this.framework = framework;
    }

    /**
     * Boots the platform of the distribution at {@code distribution} (a hotsched home: bin, bundle,
     * deploy, etc) from a copy of its {@code etc/}, with {@code schedulerYaml} as
     * {@code etc/scheduler.yaml} (null: the shipped one), and installs {@code plugins} beside the
     * shipped plugins. Returns once every bundle has started and the scheduler is connected to
     * the in-memory cluster.
     *
     * @throws BundleException naming the bundle and its missing requirement when a plugin cannot start
     */
    public static FelixPlatform boot(Path distribution, String schedulerYaml, Path... plugins) throws Exception {
        if (!Files.isDirectory(distribution.resolve("bundle"))) {
            throw new IOException("not a hotsched distribution (no bundle/ folder): " + distribution);
        }
        Path home = Files.createTempDirectory("hotsched-felix-");
        Folders.copyTree(distribution.resolve("etc"), home.resolve("etc"));
        for (String dir : List.of("deploy", "delivered", "data")) {
            Files.createDirectories(home.resolve(dir));
        }
        if (schedulerYaml != null) {
            Files.writeString(home.resolve("etc/scheduler.yaml"), schedulerYaml);
        }
        // no /metrics listener: its fixed port may be taken by a hotsched running on the same machine
        Path settings = home.resolve("etc/io.hotsched.scheduler.cfg");
        if (Files.isRegularFile(settings)) {
            String text = Files.readString(settings);
            Files.writeString(settings, text.replaceAll("(?m)^metricsAddress\\s*=.*$", "metricsAddress ="));
        }
        Function<String, String> lookup =
                name -> "hotsched.home".equals(name) ? home.toString() : System.getProperty(name);
        Path etc = home.resolve("etc");
        StartLevels levels = new StartLevels(PropertiesFile.load(etc.resolve("startlevels.properties"), lookup));
        SharedPackages shared = SharedPackages.fromClassPath();
        Map<Path, String> platformBundles = new LinkedHashMap<>();
        for (Path jar : jars(distribution.resolve("bundle"))) {
            Manifest manifest = SharedPackages.manifest(jar);
            String bsn =
                    SharedPackages.symbolicName(manifest.getMainAttributes().getValue("Bundle-SymbolicName"));
            if (!shared.provides(bsn) && !CONNECTION.contains(bsn) && !shared.takeFragment(manifest)) {
                platformBundles.put(jar, String.valueOf(bsn));
            }
        }
        Map<String, String> properties = new HashMap<>(PropertiesFile.load(etc.resolve("config.properties"), lookup));
        properties.put("hotsched.home", home.toString());
        properties.put("org.osgi.framework.storage", home.resolve("data/cache").toString());
        properties.put("org.osgi.framework.storage.clean", "onFirstInit");
        properties.put("org.osgi.framework.system.packages.extra", shared.systemPackagesExtra());
        properties.put("gosh.args", "--nointeractive");
        // the platform's logging settings, where the test has not set its own
        PropertiesFile.load(etc.resolve("system.properties"), lookup).forEach((k, v) -> {
            if (System.getProperty(k) == null) {
                System.setProperty(k, v);
            }
        });

        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        // as the launcher does: libraries in bundles that look providers up through the context
        // class loader must not find the test's class path; framework threads inherit this one
        thread.setContextClassLoader(
                new ClassLoader("hotsched-bundles-context", ClassLoader.getPlatformClassLoader()) {});
        Framework framework = new FrameworkFactory().newFramework(properties);
        FelixPlatform platform = new FelixPlatform(home, framework);
        try {
            framework.init();
            BundleContext context = framework.getBundleContext();
            List<Bundle> toStart = new ArrayList<>();
            for (Map.Entry<Path, String> b : platformBundles.entrySet()) {
                toStart.add(install(context, b.getKey(), levels.levelOf(b.getValue())));
            }
            List<Path> deployed = new ArrayList<>(jars(distribution.resolve("deploy")));
            deployed.addAll(List.of(plugins));
            List<Bundle> pluginBundles = new ArrayList<>();
            for (Path jar : deployed) {
                pluginBundles.add(install(context, jar, 80));
            }
            CountDownLatch started = new CountDownLatch(1);
            framework.getBundleContext().addFrameworkListener(e -> {
                if (e.getType() == FrameworkEvent.STARTED) {
                    started.countDown();
                }
            });
            for (Bundle b : toStart) {
                if (!isFragment(b)) {
                    b.start();
                }
            }
            framework.start();
            if (!started.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("the framework did not reach its start level within " + WAIT);
            }
            for (Bundle b : pluginBundles) {
                // throws, naming the missing requirement, when the bundle does not resolve
                b.start();
            }
            platform.connect(context);
            return platform;
        } catch (Exception | Error e) {
            platform.close();
            throw e;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** The cluster the scheduler runs on: add nodes here, read pods, bindings and events. */
    public InMemoryCluster cluster() {
        return cluster;
    }

    /** The home folder of this run (etc/, data/, an empty deploy/). */
    public Path home() {
        return home;
    }

    /** Adds nodes to the cluster. */
    public FelixPlatform nodes(Node... nodes) {
        for (Node n : nodes) {
            cluster.addNode(n);
        }
        return this;
    }

    /**
     * Creates {@code pods} in the cluster and waits (at most a minute) until the scheduler bound
     * each or marked it unschedulable: pods wait while a profile waits for its plugins.
     */
    public Placement schedule(Pod... pods) throws InterruptedException {
        return outcomes.place(cluster, pods, WAIT);
    }

    /** The bundles installed, with their state, one a line ({@code lb} in short). */
    public String bundles() {
        StringBuilder b = new StringBuilder();
        for (Bundle bundle : framework.getBundleContext().getBundles()) {
            b.append(bundle.getBundleId())
                    .append(' ')
                    .append(bundle.getSymbolicName())
                    .append(' ')
                    .append(bundle.getVersion())
                    .append(' ')
                    .append(bundle.getState() == Bundle.ACTIVE ? "ACTIVE" : "state " + bundle.getState())
                    .append('\n');
        }
        return b.toString();
    }

    /** Stops the framework (waiting at most 20 s) and deletes the home folder. */
    @Override
    public void close() throws Exception {
        try {
            framework.stop();
            framework.waitForStop(20_000);
        } catch (BundleException | IllegalStateException e) {
            // never started: nothing to stop
        } finally {
            cluster.close();
            Folders.deleteTree(home);
        }
    }

    private void connect(BundleContext context) throws InterruptedException {
        context.registerService(ClusterBackend.class, outcomes, null);
        ServiceTracker<ClusterEvents, ClusterEvents> events = new ServiceTracker<>(context, ClusterEvents.class, null);
        // all services: Felix does not count the system bundle (whose class path exports the API)
        // as wired to the API package the core imports from it, and would hide the service; the
        // class is the same one all the same
        events.open(true);
        ClusterEvents scheduler = events.waitForService(WAIT.toMillis());
        if (scheduler == null) {
            throw new IllegalStateException("no scheduler (ClusterEvents service) within " + WAIT + ":\n" + bundles());
        }
        cluster.connect(scheduler);
    }

    private static Bundle install(BundleContext context, Path jar, int level) throws BundleException {
        Bundle bundle = context.installBundle(jar.toUri().toString());
        bundle.adapt(BundleStartLevel.class).setStartLevel(level);
        return bundle;
    }

    private static boolean isFragment(Bundle bundle) {
        BundleRevision revision = bundle.adapt(BundleRevision.class);
        return revision != null && (revision.getTypes() & BundleRevision.TYPE_FRAGMENT) != 0;
    }

    private static List<Path> jars(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jar")
                            && !p.getFileName().toString().startsWith("."))
                    .sorted()
                    .toList();
        }
    }
}
