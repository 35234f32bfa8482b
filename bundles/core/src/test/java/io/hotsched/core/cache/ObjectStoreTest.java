package io.hotsched.core.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.hotsched.api.framework.ObjectKind;
import java.util.List;
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

    private static PersistentVolumeClaim claim(String ns, String name) {
        return new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withNamespace(ns)
                .withName(name)
                .endMetadata()
                .build();
    }

    @Test
    void listersAreTypedViewsOfTheirKind() {
        ObjectStore s = new ObjectStore();
        s.changed("PersistentVolumeClaim", null, claim("a", "data"));
        s.changed("PersistentVolumeClaim", null, claim("b", "data"));
        s.changed(
                "StorageClass",
                null,
                new StorageClassBuilder()
                        .withNewMetadata()
                        .withName("local")
                        .endMetadata()
                        .withVolumeBindingMode("WaitForFirstConsumer")
                        .build());
        assertEquals(
                "a", s.persistentVolumeClaims().get("a", "data").getMetadata().getNamespace());
        assertNull(s.persistentVolumeClaims().get("c", "data"));
        assertEquals(2, s.persistentVolumeClaims().list().size());
        assertEquals(List.of(claim("b", "data")), s.persistentVolumeClaims().list("b"));
        assertEquals("WaitForFirstConsumer", s.storageClasses().get("local").getVolumeBindingMode());
        assertTrue(s.csiNodes().list().isEmpty());
        s.changed("PersistentVolumeClaim", claim("a", "data"), null);
        assertNull(s.persistentVolumeClaims().get("a", "data"));
    }

    @Test
    void anObjectOfAnotherClassIsRefusedNamingTheKind() {
        ObjectStore s = new ObjectStore();
        s.changed("StorageClass", null, service("a", "web", "v1"));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> s.lister(ObjectKind.STORAGE_CLASS).list());
        assertTrue(
                e.getMessage()
                        .startsWith("a StorageClass must be a io.fabric8.kubernetes.api.model.storage.StorageClass"),
                e.getMessage());
    }
}
