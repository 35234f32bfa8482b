package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.itest.plugins.ItestVersion;
import io.hotsched.testing.Pods;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Version;

/**
 * Plugins delivered through SchedulerPlugin objects (issue 21), with hotsched as shipped against
 * the embedded API server over HTTP: bundles signed at test time with jarsigner, kept in a
 * ConfigMap, installed through delivered/ by FileInstall; refusals with their reason in status and
 * in an Event; a second replica (bin/hotsched as a process) writing its own status entry.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class PluginDeliveryIT extends KubeClusterSupport {

    static final String REPLICA = "replica-a";
    static final String NAMESPACE = "plugins";
    /** Created at 25 a second around the upgrade: about 10 s of load, within 3 nodes' 110 pods each. */
    static final int LOAD_PODS = 250;

    static final String CONFIG = defaultProfile("""
            preBind:
              enabled: [{name: ItestVersion}]
            """);

    @Override
    protected String schedulerYaml() {
        return CONFIG;
    }

    /** The delivery settings of a replica named {@code replica} that trusts the test's signer. */
    static String deliveryCfg(String replica) throws IOException {
        HttpsJars.start();
        return "truststore = " + SigningKeys.truststore() + "\ntruststoreType = PKCS12\ntruststorePassword = "
                + SigningKeys.PASSWORD + "\nreplica = " + replica + "\ninstallTimeoutSeconds = 20\n"
                + "downloadTruststore = " + HttpsJars.truststore() + "\ndownloadTruststorePassword = "
                + SigningKeys.PASSWORD + "\n";
    }

    @Override
    @Configuration
    public Option[] configuration() throws IOException {
        return kubePlatform(CONFIG, Map.of("io.hotsched.delivery.cfg", deliveryCfg(REPLICA)));
    }

    @Before
    public void pluginNamespace() {
        if (client.namespaces().withName(NAMESPACE).get() == null) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(NAMESPACE)
                            .endMetadata()
                            .build())
                    .create();
        }
    }

    @Test
    public void aSignedPluginFromAConfigMapServesIsUpgradedAndRemoved() throws Exception {
        loadClusterOnce();
        byte[] v1 = SigningKeys.get().sign(TestBundles.withVersion(itestPlugins(), "1.0.0"), SigningKeys.TRUSTED);
        publish("itest-plugins", v1);
        create("itest-plugins", "itest-plugins", sha256(v1));
        awaitActive("io.hotsched.itest.plugins", "1.0.0");
        Map<?, ?> entry = awaitEntry("itest-plugins", REPLICA, e -> "active".equals(e.get("state")));
        assertEquals("io.hotsched.itest.plugins", entry.get("bundle"));
        assertEquals("1.0.0", entry.get("version"));
        assertTrue(
                String.valueOf(entry.get("signer")),
                String.valueOf(entry.get("signer")).contains("CN=itest-signer"));
        assertTrue(bundle("io.hotsched.itest.plugins", "1.0.0")
                .orElseThrow()
                .getLocation()
                .contains("/delivered/"));
        await("the profile ready with the delivered plugin", () -> "1.0.0".equals(servingVersion(ItestVersion.NAME)));
        assertEquals("1.0.0", boundVersion("first"));
        assertTrue(events("itest-plugins").stream().anyMatch(e -> e.getReason().equals("Installed")));

        // the upgrade under load: pods are created before, during and after it
        byte[] v2 = SigningKeys.get().sign(TestBundles.withVersion(itestPlugins(), "1.1.0"), SigningKeys.TRUSTED);
        SwapLog swaps = new SwapLog();
        swaps.tookEffect(Version.parseVersion("1.0.0"));
        namespace("upgrade");
        try (BindingRecorder recorder = new BindingRecorder(client, "upgrade");
                PodLoad load = new PodLoad(client, "upgrade", "u-", LOAD_PODS, 25, "default-scheduler")) {
            await("bindings before the upgrade", () -> recorder.bound() >= 20);
            publish("itest-plugins", v2);
            patchDigest("itest-plugins", sha256(v2));
            awaitActive("io.hotsched.itest.plugins", "1.1.0");
            await("1.1.0 serves", () -> "1.1.0".equals(servingVersion(ItestVersion.NAME)));
            swaps.tookEffect(Version.parseVersion("1.1.0"));
            int createdByThen = load.created();
            await(
                    "1.0.0 uninstalled",
                    () -> bundle("io.hotsched.itest.plugins", "1.0.0").isEmpty());
            await("all pods created", load::done);
            load.check();
            try {
                await("every pod bound", () -> recorder.bound() == LOAD_PODS);
            } finally {
                System.out.printf("  %d of %d pods bound%n", recorder.bound(), LOAD_PODS);
            }
            long early = swaps.decidedByOlder(
                    recorder, load, b -> Version.parseVersion(b.annotation(ItestVersion.ANNOTATION)));
            System.out.printf(
                    "scenario delivery upgrade: %d pods (%d created before 1.1.0 served), %d bound, %d bound twice,"
                            + " %d lost, %d decided by 1.0.0 after 1.1.0 served%n",
                    LOAD_PODS,
                    createdByThen,
                    recorder.bound(),
                    recorder.boundTwice(),
                    LOAD_PODS - recorder.bound(),
                    early);
            assertEquals("bound twice", 0, recorder.boundTwice());
            assertEquals("pods decided by 1.0.0 though created after 1.1.0 served", 0, early);
            assertTrue("the upgrade happened under load", createdByThen < LOAD_PODS);
        }
        awaitEntry("itest-plugins", REPLICA, e -> "1.1.0".equals(e.get("version")) && "active".equals(e.get("state")));
        assertEquals("1.1.0", boundVersion("second"));
        assertTrue(events("itest-plugins").stream().anyMatch(e -> e.getReason().equals("Upgraded")));

        plugins().withName("itest-plugins").delete();
        await(
                "the delivered bundle uninstalled",
                () -> bundlesNamed("io.hotsched.itest.plugins").isEmpty());
        await("its jar gone", () -> jars().isEmpty());
        assertTrue(events("itest-plugins").stream().anyMatch(e -> e.getReason().equals("Removed")));
        assertPlatformRunning();
    }

    @Test
    public void aWrongDigestIsRefusedAndTheRunningVersionStays() throws Exception {
        byte[] v1 = signedSample("io.hotsched.itest.digest", "1.0.0");
        publish("digest", v1);
        create("digest", "digest", sha256(v1));
        awaitActive("io.hotsched.itest.digest", "1.0.0");
        awaitEntry("digest", REPLICA, e -> "active".equals(e.get("state")));

        byte[] v2 = signedSample("io.hotsched.itest.digest", "2.0.0");
        publish("digest", v2);
        String wrong = sha256(v1).replaceFirst(".$", sha256(v1).endsWith("0") ? "1" : "0");
        patchDigest("digest", wrong);
        Map<?, ?> entry = awaitEntry("digest", REPLICA, e -> "refused".equals(e.get("state")));
        assertTrue(
                String.valueOf(entry.get("reason")),
                String.valueOf(entry.get("reason")).contains("digest mismatch"));
        assertEquals("the running bundle is still reported", "1.0.0", entry.get("version"));
        Event refused = await("a Refused event", () -> refusedEvent("digest", "digest mismatch"));
        assertTrue(refused.getMessage(), refused.getMessage().contains("SchedulerPlugin digest"));
        assertTrue(refused.getMessage(), refused.getMessage().contains(REPLICA));
        assertTrue(
                "1.0.0 still active",
                bundle("io.hotsched.itest.digest", "1.0.0").isPresent());
        assertTrue(
                "2.0.0 never installed",
                bundle("io.hotsched.itest.digest", "2.0.0").isEmpty());
        assertEquals(
                1,
                jars().stream()
                        .filter(p -> p.getFileName().toString().startsWith("digest@"))
                        .count());
    }

    @Test
    public void unsignedAndUntrustedBundlesAreRefusedWithTheSigner() throws Exception {
        byte[] unsigned = TestBundles.bundle("io.hotsched.itest.unsigned", "1.0.0");
        publish("unsigned", unsigned);
        create("unsigned", "unsigned", sha256(unsigned));
        Map<?, ?> u = awaitEntry("unsigned", REPLICA, e -> "refused".equals(e.get("state")));
        assertTrue(
                String.valueOf(u.get("reason")), String.valueOf(u.get("reason")).contains("not signed"));
        await("a Refused event for the unsigned jar", () -> refusedEvent("unsigned", "not signed"));

        byte[] strange =
                SigningKeys.get().sign(TestBundles.bundle("io.hotsched.itest.strange", "1.0.0"), SigningKeys.STRANGER);
        publish("strange", strange);
        create("strange", "strange", sha256(strange));
        Map<?, ?> s = awaitEntry("strange", REPLICA, e -> "refused".equals(e.get("state")));
        String reason = String.valueOf(s.get("reason"));
        assertTrue(reason, reason.contains("CN=stranger") && reason.contains("not a trusted signer"));
        await("a Refused event naming the signer", () -> refusedEvent("strange", "CN=stranger"));

        assertTrue(bundlesNamed("io.hotsched.itest.unsigned").isEmpty());
        assertTrue(bundlesNamed("io.hotsched.itest.strange").isEmpty());
        assertTrue(jars().stream()
                .noneMatch(p -> p.getFileName().toString().startsWith("unsigned@")
                        || p.getFileName().toString().startsWith("strange@")));
    }

    @Test
    public void aBundleThatDoesNotResolveIsRefusedAndRemoved() throws Exception {
        String reason = refusedBundle(
                "needy",
                "io.hotsched.itest.needy.delivered",
                Map.of("Import-Package", "io.hotsched.itest.nowhere;version=\"[1,2)\""));
        assertTrue(reason, reason.contains("does not resolve") && reason.contains("io.hotsched.itest.nowhere"));
        await("a Refused event", () -> refusedEvent("needy", "does not resolve"));

        // resolves, but its activator class is missing: FileInstall's start fails and leaves it resolved
        reason = refusedBundle(
                "broken",
                "io.hotsched.itest.broken.delivered",
                Map.of("Bundle-Activator", "io.hotsched.itest.broken.Missing"));
        assertTrue(
                reason,
                reason.startsWith("the bundle does not start: ")
                        && reason.contains("io.hotsched.itest.broken.Missing"));
    }

    /**
     * Delivers a signed bundle {@code bsn} 1.0.0 with these manifest {@code headers} through
     * SchedulerPlugin {@code name}; returns the reason of its refusal once it is refused and
     * uninstalled.
     */
    private String refusedBundle(String name, String bsn, Map<String, String> headers) throws Exception {
        byte[] jar = SigningKeys.get().sign(TestBundles.bundle(bsn, "1.0.0", headers), SigningKeys.TRUSTED);
        publish(name, jar);
        create(name, name, sha256(jar));
        Map<?, ?> e = awaitEntry(name, REPLICA, x -> "refused".equals(x.get("state")));
        await("the refused bundle uninstalled", () -> bundlesNamed(bsn).isEmpty());
        return String.valueOf(e.get("reason"));
    }

    @Test
    public void aSpecWithTwoSourcesIsRefusedNamingTheField() throws Exception {
        GenericKubernetesResource o = new GenericKubernetesResource();
        o.setApiVersion("hotsched.io/v1alpha1");
        o.setKind("SchedulerPlugin");
        o.setMetadata(new ObjectMetaBuilder().withName("two-sources").build());
        o.setAdditionalProperty(
                "spec",
                Map.of(
                        "source",
                        Map.of(
                                "url",
                                "https://127.0.0.1:9/x.jar",
                                "configMap",
                                Map.of("namespace", NAMESPACE, "name", "x", "key", "x.jar")),
                        "sha256",
                        "0".repeat(64)));
        // the definition's CEL rule would stop it on kube-apiserver; the embedded server does not run CEL
        plugins().resource(o).create();
        Map<?, ?> e = awaitEntry("two-sources", REPLICA, x -> "refused".equals(x.get("state")));
        assertEquals("spec.source: set exactly one of url, configMap and secret", e.get("reason"));
        await("a Refused event", () -> refusedEvent("two-sources", "spec.source"));
    }

    /**
     * A second replica: its own status entry for an https source; then a shadow set on the object,
     * which both replicas run in shadow, and its promote through the object, which both apply.
     */
    @Test
    public void aSecondReplicaReportsItsOwnEntryAndShadowsAndPromotesAsTheObjectSays() throws Exception {
        byte[] jar = signedSample("io.hotsched.itest.fleet", "1.0.0");
        String url = HttpsJars.publish("fleet-1.0.0.jar", jar);
        try (ReplicaProcess b =
                ReplicaProcess.start(context.getProperty("hotsched.master"), "replica-b", deliveryCfg("replica-b"))) {
            b.awaitLine("Plugin delivery as replica replica-b");
            create("fleet", Map.of("url", url), sha256(jar));
            awaitEntry("fleet", REPLICA, e -> "active".equals(e.get("state")));
            awaitEntry("fleet", "replica-b", e -> "active".equals(e.get("state")));
            GenericKubernetesResource o = plugins().withName("fleet").get();
            Map<?, ?> status = (Map<?, ?>) o.getAdditionalProperties().get("status");
            assertEquals("2/2", status.get("ready"));
            assertEquals("active=2", status.get("states"));
            assertEquals("io.hotsched.itest.fleet 1.0.0", status.get("bundle"));

            plugins().withName("fleet").delete();
            await(
                    "uninstalled here",
                    () -> bundlesNamed("io.hotsched.itest.fleet").isEmpty());
            b.awaitLine("removed io.hotsched.itest.fleet 1.0.0 from replica replica-b");

            loadClusterOnce();
            byte[] v1 = SigningKeys.get().sign(TestBundles.withVersion(itestPlugins(), "1.0.0"), SigningKeys.TRUSTED);
            byte[] v2 = SigningKeys.get().sign(TestBundles.withVersion(itestPlugins(), "1.1.0"), SigningKeys.TRUSTED);
            publish("serving", v1);
            create("serving", "serving", sha256(v1));
            publish("next", v2);
            create(
                    "next",
                    Map.of("configMap", Map.of("namespace", NAMESPACE, "name", "next", "key", "next.jar")),
                    sha256(v2),
                    true);
            for (String replica : List.of(REPLICA, "replica-b")) {
                awaitEntry("serving", replica, e -> "active".equals(e.get("state")));
                awaitEntry("next", replica, e -> "shadow".equals(e.get("state")));
            }
            await("1.0.0 serves though 1.1.0 is higher", () -> "1.0.0".equals(servingVersion(ItestVersion.NAME)));
            assertEquals("1.0.0", boundVersion("while-shadowed"));
            assertEquals(
                    "states of next",
                    "shadow=2",
                    ((Map<?, ?>) plugins()
                                    .withName("next")
                                    .get()
                                    .getAdditionalProperties()
                                    .get("status"))
                            .get("states"));

            // the shell acts on this replica only, and says that the fleet keeps the shadow
            String promoted = sh("sched:promote " + ItestVersion.NAME);
            assertTrue(
                    promoted,
                    promoted.contains("on this replica")
                            && promoted.contains("A SchedulerPlugin puts io.hotsched.itest.plugins 1.1.0 in shadow"
                                    + " (spec.shadow: true): the other replicas keep it in shadow"));

            patchShadow("next", false);
            for (String replica : List.of(REPLICA, "replica-b")) {
                awaitEntry("next", replica, e -> "active".equals(e.get("state")));
                awaitEntry("serving", replica, e -> "standby".equals(e.get("state")));
            }
            await("1.1.0 serves", () -> "1.1.0".equals(servingVersion(ItestVersion.NAME)));
            assertEquals("1.1.0", boundVersion("after-promote"));
            b.awaitLine("SchedulerPlugin next: spec.shadow is false on replica replica-b: promoted ");
            assertTrue(events("next").stream().anyMatch(e -> e.getReason().equals("Promoted")));

            // the object whose version serves cannot take a new jar in shadow: the upgrade would remove 1.0.0
            byte[] v3 = SigningKeys.get().sign(TestBundles.withVersion(itestPlugins(), "1.2.0"), SigningKeys.TRUSTED);
            publish("serving", v3);
            patchSpec("serving", "\"sha256\":\"" + sha256(v3) + "\",\"shadow\":true");
            Map<?, ?> refused = awaitEntry("serving", REPLICA, e -> "refused".equals(e.get("state")));
            assertEquals(
                    "spec.shadow is true for io.hotsched.itest.plugins 1.2.0, but io.hotsched.itest.plugins 1.0.0 from"
                            + " this SchedulerPlugin serves and an upgrade removes the version it replaces: deliver"
                            + " the version to shadow in a SchedulerPlugin of its own",
                    refused.get("reason"));
            assertTrue(bundle("io.hotsched.itest.plugins", "1.0.0").isPresent());

            plugins().withName("next").delete();
            plugins().withName("serving").delete();
            await(
                    "both uninstalled here",
                    () -> bundlesNamed("io.hotsched.itest.plugins").isEmpty());
        }
    }

    // --- helpers

    /** The nodes of namespace load, made by the first test of this class that needs them. */
    private void loadClusterOnce() throws IOException {
        if (client.namespaces().withName("load").get() == null) {
            loadCluster(3);
        }
    }

    private static byte[] signedSample(String bsn, String version) throws IOException {
        return SigningKeys.get().sign(TestBundles.bundle(bsn, version), SigningKeys.TRUSTED);
    }

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<
                    GenericKubernetesResource,
                    io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
                    io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>>
            plugins() {
        return client.genericKubernetesResources("hotsched.io/v1alpha1", "SchedulerPlugin");
    }

    /** The jar as binaryData {@code NAME.jar} of ConfigMap {@code NAME} in namespace plugins. */
    private void publish(String name, byte[] jar) {
        client.configMaps()
                .inNamespace(NAMESPACE)
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .withBinaryData(
                                Map.of(name + ".jar", Base64.getEncoder().encodeToString(jar)))
                        .build())
                .createOr(c -> c.update());
    }

    private void create(String name, String configMap, String sha256) {
        create(
                name,
                Map.of("configMap", Map.of("namespace", NAMESPACE, "name", configMap, "key", configMap + ".jar")),
                sha256);
    }

    private void create(String name, Map<String, Object> source, String sha256) {
        create(name, source, sha256, false);
    }

    private void create(String name, Map<String, Object> source, String sha256, boolean shadow) {
        GenericKubernetesResource o = new GenericKubernetesResource();
        o.setApiVersion("hotsched.io/v1alpha1");
        o.setKind("SchedulerPlugin");
        o.setMetadata(new ObjectMetaBuilder().withName(name).build());
        o.setAdditionalProperty("spec", Map.of("source", source, "sha256", sha256, "shadow", shadow));
        plugins().resource(o).create();
    }

    private void patchDigest(String name, String sha256) {
        patchSpec(name, "\"sha256\":\"" + sha256 + "\"");
    }

    private void patchShadow(String name, boolean shadow) {
        patchSpec(name, "\"shadow\":" + shadow);
    }

    /** Merges {@code fields} (JSON members) into the spec of SchedulerPlugin {@code name}. */
    private void patchSpec(String name, String fields) {
        // custom resources take no strategic merge patch (fabric8's default), as on kube-apiserver
        plugins()
                .withName(name)
                .patch(
                        io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                        "{\"spec\":{" + fields + "}}");
    }

    private Map<?, ?> awaitEntry(String name, String replica, java.util.function.Predicate<Map<?, ?>> test) {
        return await(
                name + " status of " + replica,
                () -> entry(name, replica).filter(test).orElse(null));
    }

    private Optional<Map<?, ?>> entry(String name, String replica) {
        GenericKubernetesResource o = plugins().withName(name).get();
        if (o == null
                || !(o.getAdditionalProperties().get("status") instanceof Map<?, ?> s)
                || !(s.get("replicas") instanceof List<?> l)) {
            return Optional.empty();
        }
        return l.stream()
                .filter(e -> e instanceof Map<?, ?> m && replica.equals(m.get("replica")))
                .<Map<?, ?>>map(e -> (Map<?, ?>) e)
                .findFirst();
    }

    private List<Event> events(String name) {
        return client.v1()
                .events()
                .inNamespace("default")
                .withField("involvedObject.name", name)
                .list()
                .getItems();
    }

    private Event refusedEvent(String name, String text) {
        return events(name).stream()
                .filter(e -> e.getReason().equals("Refused")
                        && e.getType().equals("Warning")
                        && e.getMessage().contains(text))
                .findFirst()
                .orElse(null);
    }

    private List<Path> jars() {
        try (var files = Files.list(deployDir().resolveSibling("delivered"))) {
            return files.filter(p -> p.toString().endsWith(".jar")
                            && !p.getFileName().toString().startsWith("."))
                    .toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Creates a pod in namespace load and returns the version ItestVersion wrote on it when bound. */
    private String boundVersion(String name) {
        Pod pod = Pods.pod(name).cpu("100m").build();
        pod.getMetadata().setNamespace("load");
        client.pods().inNamespace("load").resource(pod).create();
        Pod bound = await(name + " bound", () -> {
            Pod p = client.pods().inNamespace("load").withName(name).get();
            return p != null
                            && p.getSpec().getNodeName() != null
                            && p.getMetadata().getAnnotations() != null
                    ? p
                    : null;
        });
        return bound.getMetadata().getAnnotations().get(ItestVersion.ANNOTATION);
    }

    static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
