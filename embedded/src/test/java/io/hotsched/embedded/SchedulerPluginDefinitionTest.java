package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SchedulerPlugin definition the distribution ships (plugin delivery), applied with the real
 * kubectl: served cluster-scoped with its status subresource, its schema refusing a bad digest,
 * and {@code kubectl get schedulerplugins} printing the fleet's summary columns.
 */
class SchedulerPluginDefinitionTest {

    static final Path CRD = Path.of("../distribution/src/main/kubernetes/crds/schedulerplugins.hotsched.io.yaml");
    static final String DIGEST = "0".repeat(64);

    @TempDir
    static Path dir;

    @RegisterExtension
    static final ApiServer API = new ApiServer();

    static Kubectl cli;

    @BeforeAll
    static void definition() throws Exception {
        assertTrue(Files.isRegularFile(CRD), CRD.toAbsolutePath().toString());
        cli = new Kubectl(API.kubeconfig(dir));
        cli.run("apply", "-f", CRD.toString()).ok();
        cli.run("wait", "--for", "condition=established", "crd/schedulerplugins.hotsched.io", "--timeout=20s")
                .ok();
    }

    private static String plugin(String name, String sha256) {
        return """
                apiVersion: hotsched.io/v1alpha1
                kind: SchedulerPlugin
                metadata: {name: %s}
                spec:
                  source: {configMap: {namespace: hotsched, name: plugins, key: %s.jar}}
                  sha256: "%s"
                """.formatted(name, name, sha256);
    }

    @Test
    void servedClusterScopedWithShortName() throws Exception {
        String resources =
                cli.run("api-resources", "--api-group=hotsched.io").ok().out();
        assertTrue(
                resources
                        .lines()
                        .map(l -> List.of(l.trim().split("\\s+")))
                        .anyMatch(
                                List.of("schedulerplugins", "splug", "hotsched.io/v1alpha1", "false", "SchedulerPlugin")
                                        ::equals),
                resources);
    }

    @Test
    void aDigestThatIsNotSha256IsRefusedByTheSchema() throws Exception {
        Kubectl.Run r = cli.withInput(plugin("bad-digest", "abc"), "create", "-f", "-");
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("spec.sha256"), r.out());
    }

    @Test
    void getShowsTheFleetSummaryAndActiveDefaultsToTrue() throws Exception {
        cli.withInput(plugin("sample", DIGEST), "create", "-f", "-").ok();
        assertEquals(
                "true",
                cli.run("get", "splug", "sample", "-o", "jsonpath={.spec.active}")
                        .ok()
                        .out()
                        .strip());
        cli.run(
                        "patch",
                        "schedulerplugin",
                        "sample",
                        "--subresource=status",
                        "--type=merge",
                        "-p",
                        "{\"status\":{\"bundle\":\"io.acme.sample 1.0.0\",\"ready\":\"2/2\",\"states\":\"active=2\","
                                + "\"replicas\":[{\"replica\":\"hotsched-0\",\"state\":\"active\"},"
                                + "{\"replica\":\"hotsched-1\",\"state\":\"active\"}]}}")
                .ok();
        List<String> lines = cli.run("get", "schedulerplugins", "sample")
                .ok()
                .out()
                .strip()
                .lines()
                .toList();
        assertEquals(List.of("NAME", "ACTIVE", "BUNDLE", "READY", "STATES", "AGE"), words(lines.get(0)));
        assertEquals(
                List.of("sample", "true", "io.acme.sample", "1.0.0", "2/2", "active=2"),
                words(lines.get(1)).subList(0, 6));
        String wide =
                cli.run("get", "schedulerplugins", "sample", "-o", "wide").ok().out();
        assertTrue(wide.contains("SHA256") && wide.contains(DIGEST), wide);
        assertEquals(
                List.of("NAME", "ACTIVE", "BUNDLE", "READY", "STATES", "SHADOW", "SHA256", "AGE"),
                words(wide.lines().findFirst().orElseThrow()),
                "-o wide adds whether it runs in shadow and the digest");
        assertEquals(
                List.of("false", DIGEST),
                words(wide.strip().lines().toList().get(1)).subList(6, 8),
                "spec.shadow is false by the schema's default");
    }

    private static List<String> words(String line) {
        return List.of(line.trim().split("\\s+"));
    }
}
