package io.hotsched.kube.delivery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The folder FileInstall watches for delivered bundles, as it watches deploy/: one jar per
 * SchedulerPlugin and bundle version, named {@code OBJECT@VERSION.jar}. Jars are written under a
 * hidden name and renamed into place, so FileInstall never sees half a jar.
 */
public final class DeliveredFolder {

    private final Path dir;

    public DeliveredFolder(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
    }

    public Path dir() {
        return dir;
    }

    static String fileName(String object, String version) {
        return object + "@" + version + ".jar";
    }

    /** The SchedulerPlugin a jar of this folder belongs to. */
    static Optional<String> owner(Path jar) {
        String name = jar.getFileName().toString();
        int at = name.indexOf('@');
        return at > 0 && name.endsWith(".jar") && !name.startsWith(".")
                ? Optional.of(name.substring(0, at))
                : Optional.empty();
    }

    /** A hidden file FileInstall ignores, for checking a jar before it goes live. */
    Path staging(String object, byte[] bytes) throws IOException {
        Path tmp = dir.resolve("." + object + ".staging");
        Files.write(tmp, bytes);
        return tmp;
    }

    Path moveIntoPlace(Path staged, String fileName) throws IOException {
        return Files.move(
                staged, dir.resolve(fileName), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    void delete(String fileName) throws IOException {
        Files.deleteIfExists(dir.resolve(fileName));
    }

    List<Path> jars() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> owner(p).isPresent()).sorted().toList();
        }
    }
}
