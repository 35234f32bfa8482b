package io.hotsched.core.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectStoreTest {

    private static Service service(String ns, String name, String app) {
        return new ServiceBuilder()
                .withNewMetadata()
                .withNamespace(ns)
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withSelector(Map.of("app", app))
                .endSpec()
                .build();
    }

    @Test
    void objectsAreKeptByKindNamespaceAndName() {
        ObjectStore s = new ObjectStore();
        s.changed("Service", null, service("a", "web", "v1"));
        s.changed("Service", null, service("b", "web", "v1"));
        s.changed("Service", service("a", "web", "v1"), service("a", "web", "v2"));
        assertEquals(2, s.list("Service").size());
        assertTrue(s.list("Service").stream()
                .anyMatch(o -> ((Service) o).getSpec().getSelector().get("app").equals("v2")));
        s.changed("Service", service("b", "web", "v1"), null);
        assertEquals(1, s.list("Service").size());
        assertTrue(s.list("ReplicaSet").isEmpty());
    }

    @Test
    void namespaceLabelsAreEmptyForAnUnknownNamespace() {
        ObjectStore s = new ObjectStore();
        s.changed(
                ObjectStore.NAMESPACE,
                null,
                new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("team")
                        .withLabels(Map.of("t", "1"))
                        .endMetadata()
                        .build());
        assertEquals(Map.of("t", "1"), s.namespaceLabels("team"));
        assertEquals(Map.of(), s.namespaceLabels("other"));
    }
}
