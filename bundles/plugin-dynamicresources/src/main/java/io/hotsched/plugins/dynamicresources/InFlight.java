package io.hotsched.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.hotsched.api.framework.ObjectLister;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The allocations made in Reserve that the cluster's claims do not show yet (upstream's
 * inFlightAllocations plus its assume cache): from Reserve until the claim's informer copy carries
 * an allocation, so the next pod never gets a device twice, even in the moment between PreBind's
 * write and the informer's update. Unreserve drops a pod's entries.
 *
 * <p>Everything a new instance of the plugin needs to go on where this one stops is the claims'
 * {@code status.allocation} (which the listers hold) and {@link #records()}: one plain string per
 * reserved pod, naming its claims and their devices; {@link #restore} takes them back. Nothing else
 * of this plugin's state outlives an attempt.
 */
final class InFlight {

    /**
     * One claim's allocation in flight; {@code seenNanos}: when another instance's record last named
     * it; {@code written}: the resourceVersion PreBind's write of the claim got back, null before.
     */
    private record Entry(String podUid, String claimKey, Set<String> devices, long seenNanos, String written) {
        Entry writtenAs(String resourceVersion) {
            return new Entry(podUid, claimKey, devices, seenNanos, resourceVersion);
        }
    }

    private final Map<String, Entry> byClaimUid = new ConcurrentHashMap<>();

    /** Records {@code allocation} for the claim, made for the pod. */
    void add(String podUid, ResourceClaim claim, AllocationResult allocation) {
        byClaimUid.put(
                claim.getMetadata().getUid(), new Entry(podUid, Allocator.key(claim), devices(allocation), 0, null));
    }

    /**
     * PreBind wrote the claim's allocation and got {@code stored} back: once the lister's copy is at
     * least that recent, the lister speaks for the claim, allocated or not. Without this, a claim
     * allocated and freed again before any PreFilter saw it allocated kept its devices in flight
     * until the claim was deleted.
     */
    void written(ResourceClaim stored) {
        String rv = stored.getMetadata().getResourceVersion();
        if (rv != null) {
            byClaimUid.computeIfPresent(stored.getMetadata().getUid(), (uid, e) -> e.writtenAs(rv));
        }
    }

    /** Whether another pod's attempt is allocating the claim. */
    boolean pending(String claimUid) {
        return byClaimUid.containsKey(claimUid);
    }

    /** Whether an entry of the pod is here. */
    boolean hasPod(String podUid) {
        return byClaimUid.values().stream().anyMatch(e -> e.podUid().equals(podUid));
    }

    /** Drops the pod's entries (Unreserve). */
    void removePod(String podUid) {
        byClaimUid.values().removeIf(e -> e.podUid().equals(podUid));
    }

    /**
     * The devices in flight, dropping first the entries the cluster has caught up with: the claim
     * shows an allocation, is gone, or is at least as recent as PreBind's write of it.
     */
    Set<String> devices(ObjectLister<ResourceClaim> claims) {
        Set<String> out = new HashSet<>();
        byClaimUid.entrySet().removeIf(e -> {
            String[] nsName = e.getValue().claimKey().split("/", 2);
            ResourceClaim c = claims.get(nsName[0], nsName[1]);
            return c == null
                    || !e.getKey().equals(c.getMetadata().getUid())
                    || PodClaims.allocated(c)
                    || caughtUp(
                            c.getMetadata().getResourceVersion(), e.getValue().written());
        });
        byClaimUid.values().forEach(e -> out.addAll(e.devices()));
        return out;
    }

    /**
     * Whether the lister's resourceVersion is at least the written one. Versions are compared as
     * numbers, as upstream's assume cache does with etcd's; a server whose versions are not numbers
     * is trusted only when they are equal.
     */
    static boolean caughtUp(String listed, String written) {
        if (written == null || listed == null) {
            return false;
        }
        if (listed.equals(written)) {
            return true;
        }
        try {
            return Long.parseLong(listed) >= Long.parseLong(written);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * The devices no new allocation may use: those in flight here and in {@code others}, and those
     * of every claim the lister shows allocated. The in-flight ones are read first: an entry is
     * dropped only once the lister shows its claim allocated, which every later {@code list()}
     * shows too; read the other way round, a claim whose allocation reaches the informer between
     * the two reads is in neither, and its device is given again.
     */
    static Set<String> taken(ObjectLister<ResourceClaim> claims, InFlight... inFlight) {
        Set<String> out = new HashSet<>();
        for (InFlight f : inFlight) {
            out.addAll(f.devices(claims));
        }
        for (ResourceClaim c : claims.list()) {
            if (PodClaims.allocated(c)) {
                out.addAll(devices(c.getStatus().getAllocation()));
            }
        }
        return out;
    }

    /** Devices an allocation takes ({@code driver/pool/device}); admin access takes none. */
    static Set<String> devices(AllocationResult a) {
        Set<String> out = new HashSet<>();
        if (a == null || a.getDevices() == null || a.getDevices().getResults() == null) {
            return out;
        }
        for (DeviceRequestAllocationResult r : a.getDevices().getResults()) {
            if (!Boolean.TRUE.equals(r.getAdminAccess())) {
                out.add(r.getDriver() + "/" + r.getPool() + "/" + r.getDevice());
            }
        }
        return out;
    }

    /**
     * Per reserved pod uid: {@code <claim uid>=<namespace>/<claim>:<device>,<device>;...} with each
     * device as {@code driver/pool/device}.
     */
    Map<String, String> records() {
        Map<String, StringBuilder> byPod = new TreeMap<>();
        new TreeMap<>(byClaimUid).forEach((uid, e) -> {
            StringBuilder b = byPod.computeIfAbsent(e.podUid(), k -> new StringBuilder());
            if (b.length() > 0) {
                b.append(';');
            }
            b.append(uid)
                    .append('=')
                    .append(e.claimKey())
                    .append(':')
                    .append(String.join(",", new TreeSet<>(e.devices())));
        });
        Map<String, String> out = new TreeMap<>();
        byPod.forEach((pod, b) -> out.put(pod, b.toString()));
        return out;
    }

    /** Takes back what {@link #records()} gave, from an earlier instance. */
    void restore(Map<String, String> records) {
        restore(records, 0);
    }

    /**
     * Other instances' records as they stand now. Their record of a pod ends when the pod's
     * assumption ends, which can come before this instance's claim informer shows the allocation
     * that pod's PreBind wrote: so an entry stays after its record is gone, until the claim shows
     * an allocation ({@link #devices}), or for {@code grace} (a binding that failed instead).
     */
    void seen(Map<String, String> records, long nowNanos, long graceNanos) {
        restore(records, nowNanos);
        byClaimUid.values().removeIf(e -> !records.containsKey(e.podUid()) && nowNanos - e.seenNanos() > graceNanos);
    }

    private void restore(Map<String, String> records, long seenNanos) {
        records.forEach((pod, record) -> {
            for (String claim : record.split(";")) {
                int eq = claim.indexOf('=');
                int colon = claim.lastIndexOf(':');
                if (eq < 0 || colon < eq) {
                    throw new IllegalArgumentException(
                            "not an in-flight record of pod " + pod + ": \"" + record + "\"");
                }
                Set<String> devices = new HashSet<>();
                String list = claim.substring(colon + 1);
                if (!list.isEmpty()) {
                    devices.addAll(List.of(list.split(",")));
                }
                byClaimUid.put(
                        claim.substring(0, eq),
                        new Entry(pod, claim.substring(eq + 1, colon), devices, seenNanos, null));
            }
        });
    }

    int size() {
        return byClaimUid.size();
    }
}
