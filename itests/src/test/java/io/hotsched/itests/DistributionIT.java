package io.hotsched.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built distribution as a user runs it: {@code bin/hotsched} as a process, headless, with a
 * bundle dropped into its {@code deploy/} and a SIGTERM at the end.
 */
class DistributionIT {

    @TempDir
    Path work;

    private Path home;
    private Process process;
    private final List<String> output = new CopyOnWriteArrayList<>();

    @BeforeEach
    void copyDistribution() throws IOException {
        Path dist = Path.of(System.getProperty("hotsched.dist"));
        home = PlatformOptions.copyTree(dist, work.resolve("hotsched"));
    }

    @AfterEach
    void killLeftover() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
        }
    }

    @Test
    void versionAndUsage() throws Exception {
        Result version = run("--version");
        assertEquals(0, version.code());
        assertTrue(version.text().startsWith("hotsched "), version.text());

        Result bad = run("--bogus");
        assertEquals(2, bad.code());
        assertTrue(bad.text().contains("unknown option '--bogus'"), bad.text());
        assertTrue(bad.text().contains("Usage: hotsched"), bad.text());

        Result missing = run("--kubeconfig", work.resolve("nope").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.text().contains("no such file"), missing.text());
    }

    @Test
    void headlessRunDeploysAndStopsCleanlyOnSigterm() throws Exception {
        start(
                ProcessBuilder.Redirect.from(new java.io.File("/dev/null")),
                Map.of("HOTSCHED_HEAP", "300m"),
                "--no-shell");
        awaitLine("hotsched: started in");
        assertTrue(output.stream().noneMatch(l -> l.contains("not active")), String.join("\n", output));
        // the script execs the JVM: the process started is the scheduler's, and jcmd reads the flags in effect
        String flags = jcmd(process.pid(), "VM.flags");
        assertTrue(flags.contains("-XX:+ExitOnOutOfMemoryError"), flags);
        assertTrue(flags.contains("-XX:MaxHeapSize=314572800"), flags);

        Path tmp = home.resolve("deploy/.sample.jar.tmp");
        Files.write(tmp, TestBundles.bundle(TestBundles.SAMPLE, "1.0.0"));
        Files.move(tmp, home.resolve("deploy/sample.jar"), StandardCopyOption.ATOMIC_MOVE);
        awaitLine("Started bundle: file:" + home.resolve("deploy/sample.jar"));

        Files.writeString(home.resolve("deploy/garbage.jar"), "garbage");
        awaitLine("Refused " + home.resolve("deploy/garbage.jar"));

        long stop = System.nanoTime();
        process.destroy(); // SIGTERM
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "hotsched did not exit after SIGTERM");
        System.out.printf(
                "  exit %d, %d ms after SIGTERM%n", process.exitValue(), (System.nanoTime() - stop) / 1_000_000);
        assertEquals(0, process.exitValue(), String.join("\n", output));
        assertEquals(1, output.stream().filter(l -> l.contains("garbage.jar")).count(), String.join("\n", output));
        assertTrue(
                output.stream().noneMatch(l -> l.contains("Exception") || l.startsWith("\tat ")),
                "no stack traces on the console:\n" + String.join("\n", output));
    }

    @Test
    void onceSchedulesTheDemoClusterPrintsTheTableAndExits() throws Exception {
        Result r = run("--once");
        assertEquals(0, r.code(), r.text());
        assertTrue(r.text().contains("embedded API server at http://127.0.0.1:"), r.text());
        assertTrue(r.text().contains("POD ") && r.text().contains("STATUS"), r.text());
        assertTrue(r.text().contains("demo/huge"), r.text());
        assertTrue(r.text().contains("pods bound"), r.text());
        assertTrue(!r.text().contains("default/elsewhere"), "a pod for another scheduler is not ours: " + r.text());
        // the koord-scheduler profile runs on LoadAwareScheduling, a bundle of its own in deploy/
        assertTrue(r.text().matches("(?s).*demo/load-1 +node-\\S+ +bound.*"), r.text());
        // only the ResourceAmplification transformer (its own bundle) makes node-c1 big enough
        assertTrue(r.text().matches("(?s).*demo/amplified +node-c1 +bound.*"), r.text());
        // DeviceShare (its own bundle) gave each half-GPU pod a GPU of a GPU node and wrote it on the pod
        assertTrue(r.text().matches("(?s).*demo/shared-gpu-1 +node-c[34] +bound, devices gpu [0-3]\n.*"), r.text());
        assertTrue(r.text().matches("(?s).*demo/shared-gpu-2 +node-c[34] +bound, devices gpu [0-3]\n.*"), r.text());
        // VolumeBinding: the StatefulSet's claims wait for their first consumer, node-b2 has the local disks
        assertTrue(r.text().matches("(?s).*demo/db-0 +node-b2 +bound.*"), r.text());
        assertTrue(r.text().matches("(?s).*demo/db-1 +node-b2 +bound.*"), r.text());
        assertTrue(
                r.text().matches("(?s).*demo/report +- +pending: [^\n]*persistentvolumeclaim \"reports\" not found.*"),
                r.text());
        // DynamicResources (its own bundle, CEL inside): dra-train's selector wants 40Gi, which only node-a2's GPUs
        // have
        assertTrue(r.text().matches("(?s).*demo/dra-train +node-a2 +bound.*"), r.text());
        assertTrue(r.text().matches("(?s).*demo/dra-infer +node-(a2|b3) +bound.*"), r.text());
        assertTrue(
                r.text()
                        .matches(
                                "(?s).*demo/dra-big +- +pending: [^\n]* cannot allocate all claims\\. still not schedulable.*"),
                r.text());
        assertTrue(r.text().contains("46 of 50 pods bound"), r.text());
        assertTrue(Files.readString(home.resolve("data/kubeconfig")).contains("server: http://127.0.0.1:"));
    }

    @Test
    void conformanceRunsTheShippedCasesThroughTheJarsOfDeploy() throws Exception {
        Result r = run("conformance", "--failures-only");
        assertEquals(0, r.code(), r.text());
        assertTrue(r.text().contains("plugins of io.hotsched.plugins.defaults "), r.text());
        assertTrue(
                r.text().matches("(?s).*\\d+ cases: \\d+ passed, 17 diverge on purpose \\(checked\\), 0 failed.*"),
                r.text());

        // without the plugin bundle in deploy/, its cases fail and the exit code says so
        try (var jars = Files.list(home.resolve("deploy"))) {
            for (Path jar : jars.toList()) {
                Files.delete(jar);
            }
        }
        Result without = run("conformance", "--failures-only");
        assertEquals(1, without.code(), without.text());
        assertTrue(
                without.text().contains("plugin NodeName is not provided by any bundle on the class path"),
                without.text());
    }

    /**
     * The interactive run (shell on, stdin kept open) listens on the loopback interface only, on the
     * two ports docs/security.md lists: the embedded API server's and the plain /metrics endpoint's.
     * The Gogo shell reads the process's terminal and opens no port.
     */
    @Test
    void listensOnLoopbackOnlyAndOnlyOnTheDocumentedPorts() throws Exception {
        start(ProcessBuilder.Redirect.PIPE, Map.of());
        awaitLine("hotsched: started in");
        int embedded = output.stream()
                .map(l -> java.util.regex.Pattern.compile("embedded API server at http://127\\.0\\.0\\.1:(\\d+)")
                        .matcher(l))
                .filter(java.util.regex.Matcher::find)
                .mapToInt(m -> Integer.parseInt(m.group(1)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no embedded API server line:\n" + String.join("\n", output)));

        List<ListeningSockets.Listener> listeners = ListeningSockets.of(process.toHandle());
        System.out.println("  listening: " + listeners);
        assertTrue(
                listeners.stream().allMatch(ListeningSockets.Listener::loopback),
                "a socket listens beyond the loopback interface: " + listeners);
        assertEquals(
                java.util.Set.of(embedded, 10259),
                listeners.stream().map(ListeningSockets.Listener::port).collect(java.util.stream.Collectors.toSet()),
                "listening ports: " + listeners);
        process.getOutputStream().close(); // end of input ends the shell, and with it the process
        process.destroy();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "hotsched did not exit");
    }

    /** Starts {@code bin/hotsched} with a thread copying its output into {@link #output}. */
    private void start(ProcessBuilder.Redirect input, Map<String, String> env, String... args) throws IOException {
        List<String> command = new java.util.ArrayList<>();
        command.add(home.resolve("bin/hotsched").toString());
        command.addAll(List.of(args));
        ProcessBuilder pb =
                new ProcessBuilder(command).redirectErrorStream(true).redirectInput(input);
        pb.environment().putAll(env);
        process = pb.start();
        Thread reader = new Thread(() -> {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    output.add(line);
                    System.out.println("  | " + line);
                    synchronized (output) {
                        output.notifyAll();
                    }
                }
            } catch (IOException e) {
                // process ended
            } finally {
                synchronized (output) {
                    output.notifyAll();
                }
            }
        });
        reader.setDaemon(true);
        reader.start();
    }

    /** Output of {@code jcmd PID command}, with the JDK that runs this test. */
    private static String jcmd(long pid, String command) throws Exception {
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid), command)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "jcmd did not end");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void theHeapBoundDefaultsToAShareOfMemoryAndAWrongOneIsRefusedByName() throws Exception {
        Result bad = runWith(Map.of("HOTSCHED_HEAP", "2gb"), "--version");
        assertEquals(1, bad.code());
        assertEquals(
                "hotsched: HOTSCHED_HEAP=2gb is not a heap size; give a number with k, m or g (512m, 2g)",
                bad.text().strip());
        Result fine =
                runWith(Map.of("HOTSCHED_HEAP", "512m", "HOTSCHED_OPTS", "-XX:+PrintCommandLineFlags"), "--version");
        assertEquals(0, fine.code(), fine.text());
        assertTrue(fine.text().contains("-XX:MaxHeapSize=536870912"), fine.text());
        assertTrue(fine.text().contains("-XX:+ExitOnOutOfMemoryError"), fine.text());
        Result byDefault = runWith(Map.of("HOTSCHED_OPTS", "-XX:+PrintCommandLineFlags"), "--version");
        assertTrue(byDefault.text().contains("-XX:MaxRAMPercentage=70.000000"), byDefault.text());
    }

    /** Waits for the reader thread to add a line containing {@code fragment}; it wakes this on every line. */
    private void awaitLine(String fragment) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        synchronized (output) {
            while (output.stream().noneMatch(l -> l.contains(fragment)) && process.isAlive()) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    break;
                }
                output.wait(left);
            }
        }
        if (output.stream().noneMatch(l -> l.contains(fragment))) {
            throw new AssertionError("no line containing '" + fragment + "':\n" + String.join("\n", output));
        }
    }

    private record Result(int code, String text) {}

    private Result run(String... args) throws Exception {
        return runWith(Map.of(), args);
    }

    private Result runWith(Map<String, String> env, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>();
        command.add(home.resolve("bin/hotsched").toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().putAll(env);
        Process p = pb.start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(90, TimeUnit.SECONDS));
        return new Result(p.exitValue(), text);
    }
}
