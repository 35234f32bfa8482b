package io.hotsched.plugins.dynamicresources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.hotsched.api.framework.ObjectLister;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Which devices a new allocation may not use, while PreBind's writes reach the informer. */
class InFlightTest {

    private static final AllocationResult GPU_0 = new AllocationResultBuilder()
            .withNewDevices()
            .addNewResult()
            .withRequest("gpu")
            .withDriver(Dra.DRIVER)
            .withPool("n1")
            .withDevice("gpu-0")
            .endResult()
            .endDevices()
            .build();

    private final ResourceClaim pending = Dra.claim("a", Dra.exactly("gpu", "gpu", 1));
    private final ResourceClaim written = new ResourceClaimBuilder(pending)
            .editMetadata()
            .withResourceVersion("2")
            .endMetadata()
            .withNewStatus()
            .withAllocation(GPU_0)
            .endStatus()
            .build();

    /** One claim, as the informer has it now; {@code list()} hands out the claim and then takes {@code next}. */
    private static ObjectLister<ResourceClaim> informer(AtomicReference<ResourceClaim> now, ResourceClaim next) {
        return new ObjectLister<>() {
            @Override
            public ResourceClaim get(String namespace, String name) {
                return now.get();
            }

            @Override
            public List<ResourceClaim> list() {
                return List.of(now.getAndSet(next));
            }

            @Override
            public List<ResourceClaim> list(String namespace) {
                return list();
            }
        };
    }

    /** Pod a's claim reserved with gpu-0, its allocation not yet written. */
    private InFlight podAReserved() {
        InFlight reserved = new InFlight();
        reserved.add("pod-a", pending, GPU_0);
        return reserved;
    }

    @Test
    void aDeviceWhoseAllocationReachesTheInformerWhileTheDevicesAreReadStaysTaken() {
        InFlight reserved = podAReserved();
        // the claim PreBind wrote arrives just after the list of claims was taken
        Set<String> taken = InFlight.taken(informer(new AtomicReference<>(pending), written), reserved);
        assertEquals(Set.of(Dra.DRIVER + "/n1/gpu-0"), taken);
    }

    @Test
    void onceTheClaimShowsTheAllocationTheEntryGoesAndTheClaimHoldsTheDevice() {
        InFlight reserved = podAReserved();
        Set<String> taken = InFlight.taken(informer(new AtomicReference<>(written), written), reserved);
        assertEquals(Set.of(Dra.DRIVER + "/n1/gpu-0"), taken);
        assertEquals(0, reserved.size());
    }

    @Test
    void aClaimFreedAgainBeforeAnyReadSawItAllocatedNoLongerHoldsItsDevice() {
        InFlight reserved = podAReserved();
        reserved.written(written);
        // the pod ran and ended: its claim was deallocated before this instance's next read
        ResourceClaim freed = new ResourceClaimBuilder(pending)
                .editMetadata()
                .withResourceVersion("3")
                .endMetadata()
                .build();
        Set<String> taken = InFlight.taken(informer(new AtomicReference<>(freed), freed), reserved);
        assertEquals(Set.of(), taken);
        assertEquals(0, reserved.size());
    }

    @Test
    void aListerCopyOlderThanTheWriteKeepsTheDeviceInFlight() {
        InFlight reserved = podAReserved();
        reserved.written(written);
        Set<String> taken = InFlight.taken(informer(new AtomicReference<>(pending), pending), reserved);
        assertEquals(Set.of(Dra.DRIVER + "/n1/gpu-0"), taken);
        assertEquals(1, reserved.size());
    }

    @Test
    void versionsAreComparedAsNumbersAndOtherwiseOnlyWhenEqual() {
        assertTrue(InFlight.caughtUp("10", "9"));
        assertTrue(InFlight.caughtUp("9", "9"));
        assertFalse(InFlight.caughtUp("9", "10"));
        assertTrue(InFlight.caughtUp("abc", "abc"));
        assertFalse(InFlight.caughtUp("abd", "abc"));
        assertFalse(InFlight.caughtUp("10", null));
    }
}
