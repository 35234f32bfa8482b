package io.hotsched.kube.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginSpecTest {

    private static final String SHA = "a".repeat(64);

    private static GenericKubernetesResource object(Map<String, Object> extra) {
        Map<String, Object> spec =
                new HashMap<>(Map.of("sha256", SHA, "source", Map.of("url", "https://plugins.example.com/fit.jar")));
        spec.putAll(extra);
        GenericKubernetesResource o = new GenericKubernetesResource();
        o.setMetadata(new ObjectMetaBuilder().withName("fit").withGeneration(3L).build());
        o.setAdditionalProperty("spec", spec);
        return o;
    }

    @Test
    void activeAndNotInShadowUnlessTheSpecSaysOtherwise() throws Refusal {
        PluginSpec spec = PluginSpec.of(object(Map.of()));
        assertTrue(spec.active());
        assertFalse(spec.shadow());
        assertTrue(PluginSpec.of(object(Map.of("shadow", true))).shadow());
        assertFalse(PluginSpec.of(object(Map.of("active", false))).active());
    }

    @Test
    void aShadowThatIsNoBooleanIsRefusedNamingTheField() {
        Refusal r = assertThrows(Refusal.class, () -> PluginSpec.of(object(Map.of("shadow", "yes"))));
        assertEquals("spec.shadow must be true or false, not 'yes'", r.getMessage());
        r = assertThrows(Refusal.class, () -> PluginSpec.of(object(Map.of("active", 1))));
        assertEquals("spec.active must be true or false, not '1'", r.getMessage());
    }
}
