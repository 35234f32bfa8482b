package io.hotsched.plugins.dynamicresources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.testing.DeviceResources;
import io.hotsched.testing.FakeHandle;
import io.hotsched.testing.Nodes;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The plugin's points on in-memory listers: what a claim gets, that a reserved device is not
 * given twice, that what cannot be met is refused with upstream's words.
 */
class DynamicResourcesTest {

    private static final Args ARGS = new Args(Args.DEFAULT_FILTER_TIMEOUT, Args.DEFAULT_BINDING_TIMEOUT);

    private final FakeHandle handle = new FakeHandle();
    private final DynamicResources plugin = DynamicResources.create(ARGS, handle);
    private final NodeInfo node = Nodes.node("n1").info();

    private void cluster(ResourceClaim... claims) {
        handle.listers().put(Dra.deviceClass("gpu", "device.driver == '" + Dra.DRIVER + "'"));
        handle.listers()
                .put(Dra.slice(
                        "n1",
                        Dra.device("gpu-0", "model", "a100", "numa", 0),
                        Dra.device("gpu-1", "model", "h100", "numa", 1)));
        for (ResourceClaim c : claims) {
            handle.listers().put(c);
        }
    }

    /** PreFilter, Filter on n1 and, when it passes, Reserve: the Filter status. */
    private Status schedule(CycleState state, PodInfo pod) {
        Status pre = plugin.preFilter(state, pod, null).status();
        if (!pre.isSuccess()) {
            return pre;
        }
        Status s = plugin.filter(state, pod, node);
        if (s.isSuccess()) {
            assertEquals(Status.SUCCESS, plugin.reserve(state, pod, "n1"));
        }
        return s;
    }

    /** Filter's status on n1 for pod a, whose claim asks for one device of class gpu that meets {@code selector}. */
    private Status filterWithSelector(String selector) {
        cluster(Dra.claim("a", Dra.exactly("gpu", "gpu", 1, selector)));
        PodInfo pod = PodInfo.of(Dra.pod("a", "a"));
        CycleState s = new CycleState();
        assertTrue(plugin.preFilter(s, pod, null).status().isSuccess());
        return plugin.filter(s, pod, node);
    }

    @Test
    void aSelectedDeviceIsWrittenToTheClaimAndNotGivenTwice() {
        cluster(
                Dra.claim("a", Dra.exactly("gpu", "gpu", 1, "device.attributes['gpu.example.com'].model == 'h100'")),
                Dra.claim("b", Dra.exactly("gpu", "gpu", 1, "device.attributes['gpu.example.com'].model == 'h100'")));
        PodInfo a = PodInfo.of(Dra.pod("a", "a"));
        CycleState sa = new CycleState();
        assertEquals(Status.SUCCESS, schedule(sa, a));
        // b's attempt starts while a's allocation is only in flight
        PodInfo b = PodInfo.of(Dra.pod("b", "b"));
        Status refused = schedule(new CycleState(), b);
        assertEquals(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, refused.code());
        assertEquals("cannot allocate all claims", refused.message());

        assertEquals(Status.SUCCESS, plugin.preBind(sa, a, "n1"));
        ResourceClaim written = handle.listers().resourceClaims().get("default", "a");
        var result =
                written.getStatus().getAllocation().getDevices().getResults().get(0);
        assertEquals(
                "gpu/" + Dra.DRIVER + "/n1/gpu-1",
                result.getRequest() + "/" + result.getDriver() + "/" + result.getPool() + "/" + result.getDevice());
        assertEquals("pod-a", written.getStatus().getReservedFor().get(0).getUid());
        assertTrue(written.getMetadata().getFinalizers().contains(PodClaims.FINALIZER));
        assertEquals(
                "metadata.name", DeviceResources.allocatedNodeField(written).getKey());
        // written and seen by the lister: still taken
        assertEquals("cannot allocate all claims", schedule(new CycleState(), b).message());
    }

    @Test
    void unreserveGivesTheDeviceBack() {
        cluster(Dra.claim("a", Dra.exactly("gpu", "gpu", 2)), Dra.claim("b", Dra.exactly("gpu", "gpu", 1)));
        PodInfo a = PodInfo.of(Dra.pod("a", "a"));
        CycleState sa = new CycleState();
        assertEquals(Status.SUCCESS, schedule(sa, a));
        assertEquals(1, plugin.inFlightRecords().size());
        PodInfo b = PodInfo.of(Dra.pod("b", "b"));
        assertEquals("cannot allocate all claims", schedule(new CycleState(), b).message());
        plugin.unreserve(sa, a, "n1");
        assertTrue(plugin.inFlightRecords().isEmpty());
        assertEquals(Status.SUCCESS, schedule(new CycleState(), b));
    }

    @Test
    void missingClaimsAndClassesWaitWithUpstreamsWords() {
        cluster();
        PodInfo pod = PodInfo.of(Dra.pod("p", "nope"));
        assertEquals(
                "resourceclaim.resource.k8s.io \"nope\" not found",
                plugin.preEnqueue(pod).message());
        handle.listers().put(Dra.claim("c", Dra.exactly("r", "missing", 1)));
        PodInfo other = PodInfo.of(Dra.pod("q", "c"));
        Status s = plugin.preFilter(new CycleState(), other, null).status();
        assertEquals(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, s.code());
        assertEquals("request r: device class missing does not exist", s.message());
    }

    @Test
    void allocationModeAllTakesEveryMatchingDevice() {
        var all = Dra.exactly("all", "gpu", 0);
        all.getExactly().setAllocationMode("All");
        all.getExactly().setCount(null);
        cluster(Dra.claim("a", all));
        CycleState s = new CycleState();
        PodInfo pod = PodInfo.of(Dra.pod("a", "a"));
        assertEquals(Status.SUCCESS, schedule(s, pod));
        assertEquals(Status.SUCCESS, plugin.preBind(s, pod, "n1"));
        assertEquals(
                2,
                handle.listers()
                        .resourceClaims()
                        .get("default", "a")
                        .getStatus()
                        .getAllocation()
                        .getDevices()
                        .getResults()
                        .size());
    }

    @Test
    void aCelRuntimeErrorFailsTheAttemptNamingTheSelector() {
        Status f = filterWithSelector("device.attributes['gpu.example.com'].nope == 1");
        assertEquals(Code.ERROR, f.code());
        assertTrue(f.message().startsWith("claim default/a: selector #0: CEL runtime error: "), f.message());
    }

    @Test
    void anExpensiveSelectorIsStoppedAtKubernetesCostLimit() {
        // 200^3 steps: far above the 1,000,000 limit
        String expensive = "[" + "1,".repeat(199) + "1].all(x, [" + "1,".repeat(199) + "1].all(y, [" + "1,".repeat(199)
                + "1].all(z, x + y + z > 0)))";
        Status f = filterWithSelector(expensive);
        assertEquals(Code.ERROR, f.code());
        assertTrue(f.message().endsWith("operation cancelled: actual cost limit exceeded"), f.message());
    }

    @Test
    void anotherInstanceSeesTheDevicesThisOneHasInFlightUntilTheClaimShowsThem() {
        // after an upgrade the old version finishes its pods while the new one serves
        ResourceClaim claimA = Dra.claim("a", Dra.exactly("gpu", "gpu", 2));
        cluster(claimA, Dra.claim("b", Dra.exactly("gpu", "gpu", 1)));
        assertEquals(Status.SUCCESS, schedule(new CycleState(), PodInfo.of(Dra.pod("a", "a"))));
        assertEquals(
                Map.of("pod-a", "claim-a=default/a:gpu.example.com/n1/gpu-0,gpu.example.com/n1/gpu-1"),
                plugin.inFlightRecords());
        assertEquals(
                Map.of(
                        DynamicResources.RESERVED,
                        "claim-a=default/a:gpu.example.com/n1/gpu-0,gpu.example.com/n1/gpu-1"),
                handle.reservations().of(DynamicResources.NAME).get(0).entries());
        DynamicResources next = DynamicResources.create(ARGS, handle);
        PodInfo b = PodInfo.of(Dra.pod("b", "b"));
        CycleState s = new CycleState();
        assertTrue(next.preFilter(s, b, null).status().isSuccess());
        assertEquals("cannot allocate all claims", next.filter(s, b, node).message());

        // the pod's assumption ends (its binding came back) before this informer copy of its claim
        // shows the allocation PreBind wrote: the devices stay taken
        handle.reservations().ended("pod-a");
        CycleState stillTaken = new CycleState();
        assertTrue(next.preFilter(stillTaken, b, null).status().isSuccess());
        assertEquals(
                "cannot allocate all claims", next.filter(stillTaken, b, node).message());

        // until the claims show them, here by claim a going away with its pod
        handle.listers().remove(claimA);
        CycleState again = new CycleState();
        assertTrue(next.preFilter(again, b, null).status().isSuccess());
        assertEquals(Status.SUCCESS, next.filter(again, b, node), "claim a and its devices are gone");
    }

    @Test
    void argsAreDefaultedAndChecked() throws Exception {
        Args defaults = Args.parse(new MapArgs(Map.of()));
        assertEquals(Duration.ofSeconds(10), defaults.filterTimeout());
        assertEquals(Duration.ofMinutes(10), defaults.bindingTimeout());
        assertEquals(
                Duration.ofMillis(1500),
                Args.parse(new MapArgs(Map.of("filterTimeout", "1.5s"))).filterTimeout());
        assertEquals(
                Duration.ZERO,
                Args.parse(new MapArgs(Map.of("filterTimeout", "0"))).filterTimeout());
        InvalidArgsException negative =
                assertThrows(InvalidArgsException.class, () -> Args.parse(new MapArgs(Map.of("filterTimeout", "-1s"))));
        assertEquals("filterTimeout", negative.field());
        assertTrue(negative.getMessage().contains("must be zero or positive"), negative.getMessage());
        InvalidArgsException shortBinding = assertThrows(
                InvalidArgsException.class, () -> Args.parse(new MapArgs(Map.of("bindingTimeout", "500ms"))));
        assertTrue(shortBinding.getMessage().contains("must be at least 1 second"), shortBinding.getMessage());
        InvalidArgsException garbage = assertThrows(
                InvalidArgsException.class, () -> Args.parse(new MapArgs(Map.of("filterTimeout", "soon"))));
        assertTrue(garbage.getMessage().contains("soon"), garbage.getMessage());
    }

    /** The args as the configuration gives them, bound to the v1 fields by name. */
    private record MapArgs(Map<String, Object> raw) implements PluginArgs {
        @Override
        public boolean isEmpty() {
            return raw.isEmpty();
        }

        @Override
        public <T> T as(Class<T> type) throws InvalidArgsException {
            try {
                T t = type.getConstructor().newInstance();
                for (var e : raw.entrySet()) {
                    type.getField(e.getKey()).set(t, e.getValue());
                }
                return t;
            } catch (ReflectiveOperationException e) {
                throw new InvalidArgsException("args", e.getMessage());
            }
        }
    }
}
