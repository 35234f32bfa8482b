package io.hotsched.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.hotsched.api.framework.ObjectLister;
import java.util.ArrayList;
import java.util.List;

/**
 * The ResourceClaims of a pod's {@code spec.resourceClaims}, as upstream's resourceclaim.Name
 * resolves them: a named claim, or the claim the resourceclaim controller generated from a
 * template and recorded in {@code status.resourceClaimStatuses} (which must be owned by the pod).
 * A claim not there yet, being deleted or not the pod's is why the pod cannot be scheduled, in
 * upstream's words.
 */
final class PodClaims {

    /** {@code resource.kubernetes.io/delete-protection}: the allocation is removed before the claim goes. */
    static final String FINALIZER = "resource.kubernetes.io/delete-protection";
    /** Upstream's {@code ResourceClaimReservedForMaxSize}. */
    static final int RESERVED_FOR_MAX = 256;

    /** Why a pod's claims cannot be used now. */
    static final class Missing extends Exception {
        Missing(String message) {
            super(message);
        }
    }

    private PodClaims() {}

    /** The pod's claims in the order of its spec, skipping entries without a generated claim. */
    static List<ResourceClaim> of(Pod pod, ObjectLister<ResourceClaim> claims) throws Missing {
        List<PodResourceClaim> entries = pod.getSpec() == null || pod.getSpec().getResourceClaims() == null
                ? List.of()
                : pod.getSpec().getResourceClaims();
        List<ResourceClaim> out = new ArrayList<>(entries.size());
        String ns = namespace(pod);
        for (PodResourceClaim e : entries) {
            String name;
            boolean mustBeOwned;
            if (e.getResourceClaimName() != null) {
                name = e.getResourceClaimName();
                mustBeOwned = false;
            } else if (e.getResourceClaimTemplateName() != null) {
                PodResourceClaimStatus st = generated(pod, e.getName());
                if (st == null) {
                    throw new Missing(
                            "pod \"" + ns + "/" + pod.getMetadata().getName() + "\": ResourceClaim not created yet");
                }
                if (st.getResourceClaimName() == null) {
                    continue;
                }
                name = st.getResourceClaimName();
                mustBeOwned = true;
            } else {
                throw new Missing("pod \"" + ns + "/" + pod.getMetadata().getName() + "\", spec.resourceClaim "
                        + e.getName() + ": none of the supported fields are set");
            }
            ResourceClaim c = claims.get(ns, name);
            if (c == null) {
                throw new Missing("resourceclaim.resource.k8s.io \"" + name + "\" not found");
            }
            if (c.getMetadata().getDeletionTimestamp() != null) {
                throw new Missing("resourceclaim \"" + name + "\" is being deleted");
            }
            if (mustBeOwned && !ownedBy(c, pod)) {
                throw new Missing("ResourceClaim " + ns + "/" + name + " was not created for pod " + ns + "/"
                        + pod.getMetadata().getName() + " (pod is not owner)");
            }
            out.add(c);
        }
        return out;
    }

    static boolean hasClaims(Pod pod) {
        return pod.getSpec() != null
                && pod.getSpec().getResourceClaims() != null
                && !pod.getSpec().getResourceClaims().isEmpty();
    }

    static String namespace(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        return ns == null || ns.isEmpty() ? "default" : ns;
    }

    private static PodResourceClaimStatus generated(Pod pod, String entry) {
        if (pod.getStatus() == null || pod.getStatus().getResourceClaimStatuses() == null) {
            return null;
        }
        for (PodResourceClaimStatus s : pod.getStatus().getResourceClaimStatuses()) {
            if (entry.equals(s.getName())) {
                return s;
            }
        }
        return null;
    }

    private static boolean ownedBy(ResourceClaim c, Pod pod) {
        if (c.getMetadata().getOwnerReferences() == null) {
            return false;
        }
        for (OwnerReference o : c.getMetadata().getOwnerReferences()) {
            if (Boolean.TRUE.equals(o.getController())
                    && pod.getMetadata().getUid() != null
                    && pod.getMetadata().getUid().equals(o.getUid())) {
                return true;
            }
        }
        return false;
    }

    static boolean reservedFor(ResourceClaim c, String podUid) {
        if (c.getStatus() == null || c.getStatus().getReservedFor() == null) {
            return false;
        }
        for (ResourceClaimConsumerReference r : c.getStatus().getReservedFor()) {
            if ("pods".equals(r.getResource())
                    && (r.getApiGroup() == null || r.getApiGroup().isEmpty())
                    && podUid != null
                    && podUid.equals(r.getUid())) {
                return true;
            }
        }
        return false;
    }

    /** Whether one more consumer may reserve the claim. */
    static boolean canBeReserved(ResourceClaim c) {
        return c.getStatus() == null
                || c.getStatus().getReservedFor() == null
                || c.getStatus().getReservedFor().size() < RESERVED_FOR_MAX;
    }

    static boolean allocated(ResourceClaim c) {
        return c.getStatus() != null && c.getStatus().getAllocation() != null;
    }
}
