package io.hotsched.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReferenceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.hotsched.api.framework.ClusterClient;
import io.hotsched.api.framework.ClusterException;
import io.hotsched.api.framework.ObjectLister;
import io.hotsched.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * The claim writes of PreBind, Unreserve and PostFilter, as upstream makes them: the finalizer
 * that keeps an allocated claim from going (an update), then the allocation and the pod in
 * {@code status.reservedFor} (a status update); the pod taken out of {@code reservedFor} again;
 * an allocation removed. A conflict is tried again on the claim as the informer has it, once.
 */
final class ClaimWriter {

    private final ClusterClient cluster;
    private final ObjectLister<ResourceClaim> claims;

    ClaimWriter(ClusterClient cluster, ObjectLister<ResourceClaim> claims) {
        this.cluster = cluster;
        this.claims = claims;
    }

    /** Reserves the claim for the pod, writing {@code allocation} first when it is not null. Returns the claim as stored. */
    ResourceClaim reserve(ResourceClaim claim, AllocationResult allocation, PodInfo pod) {
        try {
            return tryReserve(claim, allocation, pod);
        } catch (ClusterException e) {
            if (e.code() != 409) {
                throw e;
            }
            ResourceClaim latest = claims.get(
                    claim.getMetadata().getNamespace(), claim.getMetadata().getName());
            if (latest == null) {
                throw e;
            }
            return tryReserve(latest, allocation, pod);
        }
    }

    private ResourceClaim tryReserve(ResourceClaim claim, AllocationResult allocation, PodInfo pod) {
        ResourceClaim c = new ResourceClaimBuilder(claim).build();
        if (allocation != null) {
            if (PodClaims.allocated(c)) {
                throw new IllegalStateException(
                        "claim " + Allocator.key(c) + " got allocated elsewhere in the meantime");
            }
            List<String> finalizers = c.getMetadata().getFinalizers() == null
                    ? new ArrayList<>()
                    : new ArrayList<>(c.getMetadata().getFinalizers());
            if (!finalizers.contains(PodClaims.FINALIZER)) {
                finalizers.add(PodClaims.FINALIZER);
                c.getMetadata().setFinalizers(finalizers);
                c = cluster.update(c);
            }
        }
        if (c.getStatus() == null) {
            c.setStatus(new ResourceClaimStatus());
        }
        if (allocation != null) {
            c.getStatus().setAllocation(allocation);
        }
        List<ResourceClaimConsumerReference> reserved = c.getStatus().getReservedFor() == null
                ? new ArrayList<>()
                : new ArrayList<>(c.getStatus().getReservedFor());
        if (!PodClaims.reservedFor(c, pod.uid())) {
            reserved.add(new ResourceClaimConsumerReferenceBuilder()
                    .withResource("pods")
                    .withName(pod.name())
                    .withUid(pod.uid())
                    .build());
        }
        c.getStatus().setReservedFor(reserved);
        return cluster.updateStatus(c);
    }

    /** Takes the pod out of the claim's {@code reservedFor}; nothing when it is not there. */
    void unreserve(ResourceClaim claim, PodInfo pod) {
        ResourceClaim latest = claims.get(
                claim.getMetadata().getNamespace(), claim.getMetadata().getName());
        if (latest == null || !PodClaims.reservedFor(latest, pod.uid())) {
            return;
        }
        ResourceClaim c = new ResourceClaimBuilder(latest).build();
        c.getStatus().getReservedFor().removeIf(r -> pod.uid().equals(r.getUid()));
        cluster.updateStatus(c);
    }

    /** Removes the claim's allocation and reservations, so its devices are free again. */
    void deallocate(ResourceClaim claim) {
        ResourceClaim c = new ResourceClaimBuilder(claim).build();
        c.getStatus().setReservedFor(null);
        c.getStatus().setAllocation(null);
        cluster.updateStatus(c);
    }
}
