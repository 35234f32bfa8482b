package io.hotsched.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PluginNamesTest {

    @Test
    void aKnownNameIsNearNothing() {
        assertEquals(List.of(), PluginNames.near("NodeResourcesFit", Set.of()));
        assertEquals(List.of(), PluginNames.near("MyScorer", Set.of("MyScorer")));
    }

    @Test
    void nearMissesOfWellKnownAndInstalledNames() {
        assertEquals(List.of("NodeResourcesFit"), PluginNames.near("NodeResourceFit", Set.of()));
        assertEquals(List.of("TaintToleration"), PluginNames.near("tainttoleration", Set.of()));
        assertEquals(List.of("MyScorer"), PluginNames.near("MyScroer", Set.of("MyScorer")));
        assertEquals(List.of("NodePorts"), PluginNames.near("NodePort", Set.of()));
    }

    @Test
    void aNameFarFromEveryKnownOneIsNearNothing() {
        assertEquals(List.of(), PluginNames.near("MyTeamsScorer", Set.of()));
    }

    @Test
    void distanceStopsPastTheLimit() {
        assertEquals(1, EditDistance.of("NodePort", "NodePorts", 2));
        assertEquals(2, EditDistance.of("ab", "ba", 2));
        assertEquals(3, EditDistance.of("abcdef", "ghijkl", 2));
    }
}
