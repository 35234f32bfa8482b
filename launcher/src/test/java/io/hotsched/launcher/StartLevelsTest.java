package io.hotsched.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class StartLevelsTest {

    private final StartLevels levels = new StartLevels(Map.of(
            "default", "30",
            "org.objectweb.asm*", "1",
            "org.apache.felix.*", "20",
            "org.apache.felix.scr", "50",
            "slf4j.api", "2"));

    @Test
    void exactBeatsPrefixAndLongerPrefixWins() {
        assertEquals(50, levels.levelOf("org.apache.felix.scr"));
        assertEquals(20, levels.levelOf("org.apache.felix.configadmin"));
        assertEquals(1, levels.levelOf("org.objectweb.asm.commons"));
        assertEquals(2, levels.levelOf("slf4j.api"));
    }

    @Test
    void unnamedBundlesGetTheDefault() {
        assertEquals(30, levels.levelOf("io.fabric8.kubernetes-model-core"));
        assertEquals(30, new StartLevels(Map.of()).levelOf("x"));
    }

    @Test
    void badLevelsAreRefusedWithTheKey() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new StartLevels(Map.of("x", "high")));
        assertEquals("start level of 'x' is 'high', not a whole number", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new StartLevels(Map.of("x", "0")));
    }
}
