package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;

/**
 * Plays the external provisioner of every storage class: a claim the PV controller marked with
 * {@value VolumeBinderStandIn#PROVISIONER} and that has no volume gets a volume {@code pvc-<claim uid>}
 * of its requested size, access modes and volume mode, of its class (reclaim policy from the class,
 * Delete by default), pre-bound to it by {@code claimRef} and annotated
 * {@code pv.kubernetes.io/provisioned-by}; for a WaitForFirstConsumer claim, with a node affinity to
 * the selected node's {@code kubernetes.io/hostname} (a node-local volume, as local-path or
 * csi-hostpath provision). Nothing is stored anywhere.
 */
final class ProvisionerStandIn implements AutoCloseable {

    static final String PROVISIONED_BY = "pv.kubernetes.io/provisioned-by";

    private final KubernetesClient client;
    private final WorkQueue queue = new WorkQueue("volume-provisioner", this::provision);
    private SharedIndexInformer<PersistentVolumeClaim> claims;

    ProvisionerStandIn(KubernetesClient client) {
        this.client = client;
    }

    void start() {
        claims = client.persistentVolumeClaims().inAnyNamespace().runnableInformer(0);
        // a deleted claim needs nothing: the PV controller releases its volume
        claims.addEventHandler(queue.keysOf(c -> {}));
        claims.run();
    }

    private void provision(String key) {
        PersistentVolumeClaim c = claims.getStore().getByKey(key);
        if (c == null || VolumeBinderStandIn.volumeName(c) != null) {
            return;
        }
        String provisioner = VolumeBinderStandIn.annotation(c, VolumeBinderStandIn.PROVISIONER);
        if (provisioner == null) {
            return;
        }
        StorageClass sc = c.getSpec().getStorageClassName() == null
                ? null
                : client.storage()
                        .v1()
                        .storageClasses()
                        .withName(c.getSpec().getStorageClassName())
                        .get();
        if (sc == null || !provisioner.equals(sc.getProvisioner())) {
            return;
        }
        String node = VolumeBinderStandIn.annotation(c, VolumeBinderStandIn.SELECTED_NODE);
        boolean waits = "WaitForFirstConsumer".equals(sc.getVolumeBindingMode());
        if (waits && node == null) {
            return;
        }
        PersistentVolumeBuilder pv = new PersistentVolumeBuilder()
                .withNewMetadata()
                .withName("pvc-" + c.getMetadata().getUid())
                .withAnnotations(Map.of(PROVISIONED_BY, provisioner))
                .endMetadata()
                .withNewSpec()
                .withCapacity(Map.of("storage", VolumeBinderStandIn.request(c)))
                .withAccessModes(c.getSpec().getAccessModes())
                .withVolumeMode(
                        c.getSpec().getVolumeMode() == null
                                ? "Filesystem"
                                : c.getSpec().getVolumeMode())
                .withStorageClassName(sc.getMetadata().getName())
                .withPersistentVolumeReclaimPolicy(sc.getReclaimPolicy() == null ? "Delete" : sc.getReclaimPolicy())
                .withMountOptions(sc.getMountOptions())
                .withClaimRef(VolumeBinderStandIn.claimRef(c))
                .withNewCsi()
                .withDriver(provisioner)
                .withVolumeHandle("pvc-" + c.getMetadata().getUid())
                .endCsi()
                .endSpec();
        if (waits) {
            Node n = client.nodes().withName(node).get();
            String hostname = n == null || n.getMetadata().getLabels() == null
                    ? node
                    : n.getMetadata().getLabels().getOrDefault("kubernetes.io/hostname", node);
            pv.editSpec()
                    .withNewNodeAffinity()
                    .withNewRequired()
                    .addNewNodeSelectorTerm()
                    .addNewMatchExpression()
                    .withKey("kubernetes.io/hostname")
                    .withOperator("In")
                    .withValues(hostname)
                    .endMatchExpression()
                    .endNodeSelectorTerm()
                    .endRequired()
                    .endNodeAffinity()
                    .endSpec();
        }
        OwnerController.createIfAbsent(client, pv.build());
    }

    @Override
    public void close() {
        queue.close();
        if (claims != null) {
            claims.stop();
        }
    }
}
