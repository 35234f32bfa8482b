package io.hotsched.itests;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The podman command line, with the flags these machines need (shared/docs/containers.md): runc
 * with cgroupfs, because crun refuses the hybrid cgroup layout; limits no higher than the
 * machine's, because podman may not raise them; the host's network, so that a container reaches
 * servers on 127.0.0.1 and the test reaches the container's ports there.
 */
final class Podman {

    static final String INSTALL = "apt-get install -y podman runc";
    private static final String RUNC = "/usr/sbin/runc";
    private static final List<String> GLOBAL = List.of("--runtime", RUNC, "--cgroup-manager=cgroupfs");

    private Podman() {}

    /** Fails, saying what to install, when podman or runc is missing. */
    static Podman onThisMachine() throws IOException, InterruptedException {
        String problem = null;
        try {
            Process p = new ProcessBuilder("podman", "--version")
                    .redirectErrorStream(true)
                    .start();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                problem = "'podman --version' failed";
            }
        } catch (IOException e) {
            problem = "podman is not on the PATH";
        }
        if (problem == null && !Files.isExecutable(Path.of(RUNC))) {
            problem = RUNC + " is missing";
        }
        if (problem != null) {
            throw new AssertionError(problem + ": ContainerIT (-Dcontainer) runs the image with podman and runc;"
                    + " install them (" + INSTALL + ") or build without -Dcontainer");
        }
        return new Podman();
    }

    /** Loads a docker-archive or OCI archive into podman's store; the name it was loaded as. */
    String load(Path archive) throws IOException, InterruptedException {
        if (!Files.isRegularFile(archive)) {
            throw new AssertionError("no image at " + archive
                    + ": the image/ module builds it (mvn -B verify -Dcontainer -Dhotsched.image.base=...)");
        }
        String out = run("load", "-i", archive.toString());
        return out.lines()
                .filter(l -> l.startsWith("Loaded image: "))
                .map(l -> l.substring("Loaded image: ".length()).trim())
                .reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("podman load named no image:\n" + out));
    }

    /** {@code podman image inspect --format FORMAT image}, trimmed. */
    String inspect(String image, String format) throws IOException, InterruptedException {
        return run("image", "inspect", "--format", format, image).trim();
    }

    void removeImage(String image) throws IOException, InterruptedException {
        run("rmi", "--force", image);
    }

    /**
     * Starts {@code image} as container {@code name} (removed when it stops), with {@code env},
     * its entrypoint given {@code args}; its output goes to {@code log}.
     */
    Container start(String name, String image, Map<String, String> env, Path log, String... args) throws IOException {
        List<String> command = command("run", "--rm", "--name", name, "--network=host");
        command.addAll(List.of("--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"));
        env.forEach((k, v) -> command.addAll(List.of("--env", k + "=" + v)));
        command.add(image);
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        return new Container(name, p);
    }

    /** A running container; closing stops it as the kubelet does (SIGTERM, then SIGKILL). */
    final class Container implements AutoCloseable {
        private final String name;
        private final Process process;

        private Container(String name, Process process) {
            this.name = name;
            this.process = process;
        }

        boolean isRunning() {
            return process.isAlive();
        }

        /** Its exit code once it stopped (within {@code seconds}), else null. */
        Integer awaitExit(long seconds) throws InterruptedException {
            return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : null;
        }

        @Override
        public void close() throws IOException, InterruptedException {
            if (process.isAlive()) {
                run("stop", "--time", "20", name);
            }
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                run("rm", "--force", name);
                process.destroyForcibly();
            }
        }
    }

    private static List<String> command(String... words) {
        List<String> command = new ArrayList<>();
        command.add("podman");
        command.addAll(GLOBAL);
        command.addAll(List.of(words));
        return command;
    }

    /** Runs a podman command to its end; its output, or an AssertionError naming the command. */
    private static String run(String... words) throws IOException, InterruptedException {
        List<String> command = command(words);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError(
                    String.join(" ", command) + " failed:\n" + new String(out, StandardCharsets.UTF_8));
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
