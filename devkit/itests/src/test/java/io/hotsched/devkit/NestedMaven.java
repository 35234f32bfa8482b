package io.hotsched.devkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Maven run of its own, as a plugin author would type it: the Maven that runs this build, offline
 * (file repositories excepted, such as the one this build fills with hotsched's artifacts), on the
 * machine's local repository. Its output goes to a file (a full pipe could stop it).
 */
final class NestedMaven {

    record Result(int code, String output) {}

    private NestedMaven() {}

    static Result run(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("maven.home"), "bin", "mvn").toString());
        command.addAll(List.of(
                "-B",
                "-o",
                "-Daether.offline.protocols=file",
                "-Dmaven.repo.local=" + System.getProperty("maven.repo.local")));
        command.addAll(List.of(args));
        Path log = Files.createTempFile(dir, "mvn-", ".log");
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(
                    "mvn " + String.join(" ", args) + " still running after 5 min:\n" + Files.readString(log));
        }
        String output = Files.readString(log);
        System.out.printf("  mvn %s: exit %d%n", String.join(" ", args), p.exitValue());
        return new Result(p.exitValue(), output);
    }
}
