package io.hotsched.itests;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code bin/hotsched apiserver} of a copy of the built distribution, as a process of its own, on a
 * free port and with no seed objects: the cluster that scheduler processes and containers on this
 * machine reach over HTTP. Stopped (SIGTERM) when closed.
 */
final class ApiServerProcess implements AutoCloseable {

    private static final String READY = "API server only, no scheduler";
    private static final long WAIT_SECONDS = 90;

    private final Process process;
    private final String url;

    private ApiServerProcess(Process process, String url) {
        this.process = process;
        this.url = url;
    }

    /** Starts it under {@code work} (its home, log and empty seed folder), with {@code options} added. */
    static ApiServerProcess start(Path work, String... options) throws IOException, InterruptedException {
        Path home = PlatformOptions.copyTree(Path.of(System.getProperty("hotsched.dist")), work.resolve("api"));
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(
                home.resolve("bin/hotsched").toString(),
                "apiserver",
                "--port",
                Integer.toString(port),
                "--cluster-dir",
                Files.createDirectories(work.resolve("no-seed")).toString()));
        command.addAll(List.of(options));
        Path log = work.resolve("api.log");
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!Files.readString(log, StandardCharsets.ISO_8859_1).contains(READY)) {
            if (!p.isAlive() || System.nanoTime() > until) {
                p.destroyForcibly();
                throw new AssertionError("the API server did not start (alive: " + p.isAlive() + "):\n"
                        + Files.readString(log, StandardCharsets.ISO_8859_1));
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        return new ApiServerProcess(p, "http://127.0.0.1:" + port);
    }

    String url() {
        return url;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
