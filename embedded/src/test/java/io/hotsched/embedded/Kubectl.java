package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The machine's real kubectl against one kubeconfig; fails (does not skip) when there is none. */
final class Kubectl {

    /** What one kubectl run printed, and how it ended. */
    record Run(int exit, String out) {
        Run ok() {
            assertEquals(0, exit, out);
            return this;
        }
    }

    private final Path kubeconfig;

    Kubectl(Path kubeconfig) {
        this.kubeconfig = kubeconfig;
    }

    Run run(String... args) throws IOException, InterruptedException {
        return withInput(null, args);
    }

    Run withInput(String stdin, String... args) throws IOException, InterruptedException {
        List<String> command = command(args);
        // the output goes to a file: a pipe that nobody reads while waiting would stop a kubectl
        // that prints more than the pipe holds
        Path out = java.nio.file.Files.createTempFile("kubectl", ".out");
        try {
            Process p =
                    start(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()));
            if (stdin != null) {
                p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            p.getOutputStream().close();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not end within 60 s; it printed: "
                        + java.nio.file.Files.readString(out));
            }
            return new Run(p.exitValue(), java.nio.file.Files.readString(out));
        } finally {
            java.nio.file.Files.deleteIfExists(out);
        }
    }

    /** A kubectl that keeps running (get -w, wait), its output read line by line as it comes. */
    Running started(String... args) throws IOException {
        return new Running(start(new ProcessBuilder(command(args)).redirectErrorStream(true)));
    }

    /** A running kubectl; closing it ends it. */
    static final class Running implements AutoCloseable {
        private final Process process;
        private final java.util.concurrent.BlockingQueue<String> lines =
                new java.util.concurrent.LinkedBlockingQueue<>();
        private final List<String> seen = new ArrayList<>();
        private final Thread reader;

        private Running(Process process) {
            this.process = process;
            reader = new Thread(
                    () -> {
                        try (var in = new java.io.BufferedReader(
                                new java.io.InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                            in.lines().forEach(lines::add);
                        } catch (IOException | java.io.UncheckedIOException e) {
                            // ended
                        }
                    },
                    "kubectl-output");
            reader.setDaemon(true);
            reader.start();
        }

        /** The next line that {@code test} accepts (30 s at most); fails with the output so far. */
        String line(java.util.function.Predicate<String> test) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (; ; ) {
                String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null) {
                    throw new AssertionError("kubectl printed no such line within 30 s; it printed: " + seen);
                }
                seen.add(line);
                if (test.test(line)) {
                    return line;
                }
            }
        }

        /** How kubectl ended (60 s at most), with all it printed. */
        Run ended() throws InterruptedException {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("kubectl did not end within 60 s; it printed: " + seen);
            }
            // the reader has read the rest once it reached the end of the output
            reader.join(TimeUnit.SECONDS.toMillis(5));
            lines.drainTo(seen);
            return new Run(process.exitValue(), String.join("\n", seen));
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        return command;
    }

    private static Process start(ProcessBuilder command) throws IOException {
        try {
            return command.start();
        } catch (IOException e) {
            throw new AssertionError(
                    "kubectl is needed on the PATH for this test (v1.32 is what the project checks with): "
                            + e.getMessage(),
                    e);
        }
    }
}
