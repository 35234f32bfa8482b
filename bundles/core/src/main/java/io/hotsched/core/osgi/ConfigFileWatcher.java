package io.hotsched.core.osgi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Tells when a file's content changed (a check is a read of a small file and a comparison), so
 * that an editor's several writes, or a touch without change, do not reload twice.
 */
final class ConfigFileWatcher {

    private final Path file;
    private final Consumer<Path> onChange;
    private byte[] last;
    private boolean lastMissing;

    ConfigFileWatcher(Path file, Consumer<Path> onChange) {
        this.file = file;
        this.onChange = onChange;
        this.last = read();
        this.lastMissing = last == null;
    }

    /** Checks once; calls back when the content differs from the last check. */
    void check() {
        byte[] now = read();
        boolean missing = now == null;
        if (missing && lastMissing) {
            return;
        }
        if (!missing && !lastMissing && Arrays.equals(now, last)) {
            return;
        }
        last = now;
        lastMissing = missing;
        if (!missing) {
            onChange.accept(file);
        }
    }

    private byte[] read() {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            return null;
        }
    }
}
