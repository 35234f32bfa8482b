package io.hotsched.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How sched:state lays out a plugin's state. */
class OutlineTest {

    @Test
    void nestedMapsIndentAndListsOfRowsBecomeItems() {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("usage", Map.of("cpu", "2200m"));
        node.put("names", List.of("a", "b"));
        node.put("pods", List.of(Map.of("pod", "demo/web-1")));
        node.put("empty", Map.of());
        StringBuilder b = new StringBuilder();
        Outline.write(b, Map.of("node-a1", node), 1);
        assertEquals("""
                  node-a1:
                    usage:
                      cpu: 2200m
                    names: [a, b]
                    pods:
                      -
                        pod: demo/web-1
                    empty:
                      (nothing)
                """, b.toString());
    }
}
