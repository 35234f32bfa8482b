package io.hotsched.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PropertiesFileTest {

    @TempDir
    Path dir;

    @Test
    void substitutesFromFileThenLookup() throws IOException {
        Path f = write("a = ${hotsched.home}/data\nb = ${a}/cache\nfilter = .*\\\\.cfg\n");
        Map<String, String> p = PropertiesFile.load(f, Map.of("hotsched.home", "/h")::get);
        assertEquals("/h/data", p.get("a"));
        assertEquals("/h/data/cache", p.get("b"));
        assertEquals(".*\\.cfg", p.get("filter"));
    }

    @Test
    void unknownReferenceNamesFileAndKey() throws IOException {
        Path f = write("x = ${nope}/y\n");
        IOException e = assertThrows(IOException.class, () -> PropertiesFile.load(f, k -> null));
        assertTrue(e.getMessage().contains("'x' refers to ${nope}"), e.getMessage());
        assertTrue(e.getMessage().startsWith(f.toString()), e.getMessage());
    }

    @Test
    void cyclesAreReported() throws IOException {
        Path f = write("a = ${b}\nb = ${a}\n");
        IOException e = assertThrows(IOException.class, () -> PropertiesFile.load(f, k -> null));
        assertTrue(e.getMessage().contains("refers to itself"), e.getMessage());
    }

    @Test
    void unclosedReference() throws IOException {
        Path f = write("a = ${b\n");
        IOException e = assertThrows(IOException.class, () -> PropertiesFile.load(f, k -> null));
        assertTrue(e.getMessage().contains("unclosed"), e.getMessage());
    }

    private Path write(String text) throws IOException {
        Path f = dir.resolve("t.properties");
        Files.writeString(f, text);
        return f;
    }
}
