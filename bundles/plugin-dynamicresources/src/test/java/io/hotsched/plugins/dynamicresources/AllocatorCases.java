package io.hotsched.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.hotsched.api.framework.ObjectLister;
import io.hotsched.conformance.runner.ConformanceRunner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Upstream's allocator table (k8s.io/dynamic-resource-allocation structured, TestAllocator) as
 * conformance cases of kind {@value #KIND}: the claims, classes, slices, node and devices already
 * allocated go to this bundle's {@link Allocator} as the plugin's PreFilter hands them over, and
 * its answer is compared with the case's: each claim's allocation result (in any order, as the
 * table's matchers take them), no allocation, or an error containing the case's text.
 */
public final class AllocatorCases {

    public static final String KIND = "allocate";

    private AllocatorCases() {}

    public static void run(JsonNode c) throws Exception {
        JsonNode in = c.path("input");
        JsonNode want = c.path("expected");
        List<DeviceClass> classes = read(in.path("classes"), DeviceClass.class);
        List<ResourceSlice> slices = read(in.path("slices"), ResourceSlice.class);
        Node node = ConformanceRunner.JSON.treeToValue(in.path("node"), Node.class);
        Set<String> allocated = new HashSet<>();
        in.path("allocatedDevices").forEach(d -> allocated.add(d.asText()));

        String error = null;
        List<AllocationResult> results = null;
        try {
            List<ClaimRequests> claims = new ArrayList<>();
            for (ResourceClaim claim : read(in.path("claims"), ResourceClaim.class)) {
                claims.add(ClaimRequests.of(claim, new Listed<>(classes)));
            }
            results = new Allocator(claims, DevicePools.of(slices), allocated, new CelSelectors()).allocate(node, 0);
        } catch (ClaimRequests.Unusable | Allocator.AllocationError e) {
            error = e.getMessage();
        }

        String wantError = want.path("errorContains").asText(null);
        if (wantError == null && error != null) {
            throw new AssertionError("unexpected error: " + error);
        }
        if (wantError != null && (error == null || !error.contains(wantError))) {
            throw new AssertionError("error: want one containing \"" + wantError + "\", got "
                    + (error == null ? "none" : "\"" + error + "\""));
        }
        JsonNode got = canonical(ConformanceRunner.JSON.valueToTree(results == null ? List.of() : results));
        JsonNode expected = canonical(
                want.path("results").isMissingNode() ? ConformanceRunner.JSON.createArrayNode() : want.path("results"));
        if (!expected.equals(got)) {
            throw new AssertionError("allocation results: want " + expected + ", got " + got);
        }
    }

    private static <T> List<T> read(JsonNode list, Class<T> type) {
        List<T> out = new ArrayList<>();
        for (JsonNode o : list) {
            out.add(ConformanceRunner.JSON.treeToValue(o, type));
        }
        return out;
    }

    /**
     * The tree without nulls and empty arrays or objects (Go's omitempty), with the lists the
     * table compares in any order (allocation results, their devices, node selector terms,
     * requirements and values) sorted.
     */
    static JsonNode canonical(JsonNode n) {
        if (n.isObject()) {
            ObjectNode out = ConformanceRunner.JSON.createObjectNode();
            List<java.util.Map.Entry<String, JsonNode>> fields = new ArrayList<>(n.properties());
            fields.sort(java.util.Map.Entry.comparingByKey());
            for (var e : fields) {
                JsonNode v = canonical(e.getValue());
                boolean empty = v.isNull() || ((v.isArray() || v.isObject()) && v.isEmpty());
                if (!empty) {
                    out.set(e.getKey(), v);
                }
            }
            return out;
        }
        if (n.isArray()) {
            List<JsonNode> items = new ArrayList<>();
            n.forEach(x -> items.add(canonical(x)));
            if (items.stream().allMatch(x -> !x.isObject() || !x.has("opaque"))) {
                items.sort((a, b) -> a.toString().compareTo(b.toString()));
            }
            ArrayNode out = ConformanceRunner.JSON.createArrayNode();
            items.forEach(out::add);
            return out;
        }
        return n;
    }

    /** The case's objects as a lister serves them. */
    private record Listed<T extends HasMetadata>(List<T> items) implements ObjectLister<T> {
        @Override
        public T get(String namespace, String name) {
            return items.stream()
                    .filter(o -> Objects.equals(o.getMetadata().getName(), name))
                    .findFirst()
                    .orElse(null);
        }

        @Override
        public List<T> list() {
            return List.copyOf(items);
        }

        @Override
        public List<T> list(String namespace) {
            return list();
        }
    }
}
