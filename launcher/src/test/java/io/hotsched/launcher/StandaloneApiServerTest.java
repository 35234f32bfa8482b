package io.hotsched.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hotsched.embedded.EmbeddedApiServer;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hotsched apiserver} as a process of its own (so SIGTERM is real), and
 * {@code hotsched --print-kubeconfig} against it while it runs and after it stopped.
 */
class StandaloneApiServerTest {

    private static final Pattern URL = Pattern.compile("embedded API server at (http://127\\.0\\.0\\.1:(\\d+))");

    @TempDir
    Path home;

    @Test
    @Timeout(120)
    void servesTheSeededClusterUntilSigtermAndPrintKubeconfigFindsIt() throws Exception {
        Files.createDirectories(home.resolve("bundle"));
        Path cluster = Files.createDirectories(home.resolve("etc/cluster"));
        Files.writeString(cluster.resolve("nodes.yaml"), node("w1") + "---\n" + node("w2"));
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        Process process = new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "apiserver",
                        "--home",
                        home.toString(),
                        "--port",
                        Integer.toString(port),
                        "--no-stand-in",
                        "koordlet")
                .redirectErrorStream(true)
                .start();
        List<String> output = Collections.synchronizedList(new ArrayList<>());
        BufferedReader lines =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String url = null;
        try {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                output.add(line);
                Matcher m = URL.matcher(line);
                if (m.find()) {
                    url = m.group(1);
                    assertEquals(Integer.toString(port), m.group(2), line);
                }
                if (line.contains("API server only")) {
                    break;
                }
            }
            assertTrue(url != null && process.isAlive(), String.join("\n", output));
            Thread drain = new Thread(() -> lines.lines().forEach(output::add));
            drain.start();
            String started = String.join("\n", output);
            assertTrue(started.contains("2 objects from " + cluster), started);
            assertTrue(started.contains("stand-ins off: koordlet"), started);
            assertTrue(started.contains("bin/hotsched --kubeconfig " + home.resolve("data/kubeconfig")), started);

            try (KubernetesClient client = EmbeddedApiServer.newClient(url)) {
                assertEquals(
                        List.of("w1", "w2"),
                        client.nodes().list().getItems().stream()
                                .map(n -> n.getMetadata().getName())
                                .sorted()
                                .toList());
            }
            assertFalse(Files.exists(home.resolve("data/cache")), "no OSGi framework storage in this mode");

            Run print = main("--print-kubeconfig", "--home", home.toString());
            assertEquals(Main.OK, print.code(), print.err());
            assertEquals(Files.readString(home.resolve("data/kubeconfig")), print.out());
            assertTrue(print.out().contains("server: " + url), print.out());

            // SIGTERM; Process.destroy() would also close the pipe the drain reads the last lines from
            assertTrue(process.toHandle().destroy());
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), "still running after SIGTERM");
            drain.join();
            assertEquals(0, process.exitValue(), String.join("\n", output));
            String all = String.join("\n", output);
            assertTrue(all.contains("SIGTERM received, stopping the API server"), all);
            assertTrue(all.endsWith("hotsched: API server stopped"), all);
            assertFalse(all.contains("Exception"), all);
        } finally {
            process.destroyForcibly();
        }

        Run after = main("--print-kubeconfig", "--home", home.toString());
        assertEquals(Main.FAILED, after.code());
        assertEquals("", after.out());
        assertTrue(
                after.err()
                        .contains("no instance runs from " + home + ": " + home.resolve("data/kubeconfig") + " names "
                                + url + ", which does not answer"),
                after.err());
    }

    @Test
    void printKubeconfigWithoutAnInstanceSaysSoAndExitsOne() throws Exception {
        Files.createDirectories(home.resolve("bundle"));
        Files.createDirectories(home.resolve("etc"));
        Run r = main("--print-kubeconfig", "--home", home.toString());
        assertEquals(Main.FAILED, r.code());
        assertEquals("", r.out());
        assertEquals(
                "hotsched: no instance runs from " + home + " (" + home.resolve("data/kubeconfig")
                        + " does not exist); start one with bin/hotsched or bin/hotsched apiserver\n",
                r.err());
    }

    @Test
    void apiserverWithAMissingClusterDirFailsNamingIt() throws Exception {
        Files.createDirectories(home.resolve("bundle"));
        Files.createDirectories(home.resolve("etc"));
        Run r = main(
                "apiserver",
                "--home",
                home.toString(),
                "--cluster-dir",
                home.resolve("nope").toString());
        assertEquals(Main.FAILED, r.code(), r.err());
        assertTrue(
                r.err()
                        .contains("the API server did not start: --cluster-dir " + home.resolve("nope")
                                + ": no such folder"),
                r.err());
    }

    @Test
    void apiserverHelpAndBadWords() {
        Run help = main("apiserver", "--help");
        assertEquals(Main.OK, help.code());
        assertTrue(help.out().startsWith("Usage: hotsched apiserver"), help.out());
        Run bad = main("apiserver", "--embedded-port", "1");
        assertEquals(Main.USAGE, bad.code());
        assertTrue(
                bad.err()
                        .startsWith("hotsched: unknown option '--embedded-port' of 'hotsched apiserver'\n"
                                + "Usage: hotsched apiserver"),
                bad.err());
    }

    private static String node(String name) {
        return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\n";
    }

    record Run(int code, String out, String err) {}

    /** Main in this JVM, with what it prints on standard output and error. */
    private static synchronized Run main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            int code = new Main(new PrintStream(err, true, StandardCharsets.UTF_8)).run(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(stdout);
        }
    }
}
