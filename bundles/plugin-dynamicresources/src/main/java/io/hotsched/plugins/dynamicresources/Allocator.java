package io.hotsched.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.hotsched.plugins.dynamicresources.DevicePools.Candidate;
import io.hotsched.plugins.dynamicresources.DevicePools.Pool;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The structured-parameters allocator (k8s.io/dynamic-resource-allocation/structured): for one
 * node, devices for every request of every claim, or none at all. A device is a candidate for a
 * request when its class's selectors and the request's selectors match it and its taints are
 * tolerated; it is free when no claim holds it (allocated or in flight), this allocation has not
 * taken it, and its pool's shared counters still cover what it consumes. Admin access takes a
 * device whatever holds it. The search goes depth first through claims, requests, devices, and
 * backs out of a choice when a later request or a {@code matchAttribute} / {@code
 * distinctAttribute} constraint cannot be met; a {@code firstAvailable} request tries its
 * subrequests in order. One allocator serves the Filter calls of one attempt, in parallel.
 */
final class Allocator {

    /** Upstream's {@code resourceapi.AllocationResultsMaxSize}. */
    static final int MAX_RESULTS = 32;

    /** The claim or class cannot be evaluated (a CEL error, a pool that makes "All" unknowable): the attempt fails with an error. */
    static class AllocationError extends Exception {
        AllocationError(String message) {
            super(message);
        }
    }

    /** The search for one node ran past {@code filterTimeout}. */
    static final class TimedOut extends AllocationError {
        TimedOut() {
            super("timed out trying to allocate devices");
        }
    }

    /**
     * No allocation on this node, and some of its pools are invalid: upstream reports that
     * instead of a plain "cannot allocate" (ErrFailedAllocationOnNode, so other nodes may still
     * serve).
     */
    static final class InvalidPools extends AllocationError {
        InvalidPools() {
            super("invalid resource pools were encountered");
        }
    }

    private final List<ClaimRequests> claims;
    private final DevicePools pools;
    private final Set<String> allocated;
    private final CelSelectors cel;
    /** What the allocated devices already take of each pool's counters: pool id, set, counter. */
    private final Map<String, Map<String, Map<String, BigDecimal>>> consumed = new HashMap<>();

    Allocator(List<ClaimRequests> claims, DevicePools pools, Set<String> allocated, CelSelectors cel) {
        this.claims = claims;
        this.pools = pools;
        this.allocated = allocated;
        this.cel = cel;
        for (Pool p : pools.pools()) {
            for (var s : p.slices) {
                for (Device d : DevicePools.devices(s)) {
                    if (allocated.contains(p.id() + "/" + d.getName())) {
                        consume(consumed, p, d, BigDecimal.ONE);
                    }
                }
            }
        }
    }

    List<ResourceClaim> claimsToAllocate() {
        return claims.stream().map(ClaimRequests::claim).toList();
    }

    /**
     * One allocation result per claim, in claim order, or null when the node cannot take them all.
     * The search gives up with {@link TimedOut} at {@code deadline} ({@link System#nanoTime}; 0: never).
     */
    List<AllocationResult> allocate(Node node, long deadline) throws AllocationError {
        return new Run(node, deadline).allocate();
    }

    private static void consume(
            Map<String, Map<String, Map<String, BigDecimal>>> into, Pool p, Device d, BigDecimal sign) {
        if (d.getConsumesCounters() == null) {
            return;
        }
        for (DeviceCounterConsumption c : d.getConsumesCounters()) {
            Map<String, BigDecimal> set = into.computeIfAbsent(p.id(), k -> new HashMap<>())
                    .computeIfAbsent(c.getCounterSet(), k -> new HashMap<>());
            if (c.getCounters() != null) {
                c.getCounters()
                        .forEach((n, v) -> set.merge(n, DevicePools.amount(v).multiply(sign), BigDecimal::add));
            }
        }
    }

    /** One node's search. */
    private final class Run {
        private final Node node;
        private final long deadline;
        private final List<Candidate> candidates;
        private final Map<Candidate, Map<String, Object>> celInputs = new IdentityHashMap<>();
        private final Map<DeviceRequest, Map<Candidate, Boolean>> matches = new IdentityHashMap<>();
        private final Set<String> used = new HashSet<>();
        private final Map<String, Map<String, Map<String, BigDecimal>>> taken = new HashMap<>();
        /** Per claim: the devices chosen so far, with the request each serves. */
        private final List<List<Chosen>> chosen = new ArrayList<>();

        private final List<List<ConstraintState>> constraints = new ArrayList<>();

        Run(Node node, long deadline) {
            this.node = node;
            this.deadline = deadline;
            this.candidates = pools.candidates(node);
            for (ClaimRequests c : claims) {
                chosen.add(new ArrayList<>());
                List<ConstraintState> cs = new ArrayList<>();
                for (DeviceConstraint dc : c.constraints()) {
                    cs.add(new ConstraintState(dc));
                }
                constraints.add(cs);
            }
        }

        List<AllocationResult> allocate() throws AllocationError {
            for (ClaimRequests c : claims) {
                validate(c);
            }
            for (ClaimRequests c : claims) {
                int n = 0;
                for (List<DeviceRequest> alts : c.requests()) {
                    DeviceRequest first = alts.get(0);
                    if (!first.all() && alts.size() == 1) {
                        n += (int) first.count();
                    }
                }
                if (n > MAX_RESULTS) {
                    throw new AllocationError("claim " + key(c.claim()) + ": number of requested devices " + n
                            + " exceeds the claim limit of " + MAX_RESULTS);
                }
            }
            if (!claim(0)) {
                if (candidates.stream().anyMatch(d -> d.pool().invalid)) {
                    throw new InvalidPools();
                }
                return null;
            }
            List<AllocationResult> out = new ArrayList<>();
            for (int i = 0; i < claims.size(); i++) {
                out.add(result(claims.get(i), chosen.get(i)));
            }
            return out;
        }

        /** What upstream refuses before searching: a constraint or selector of a kind it does not know. */
        private void validate(ClaimRequests c) throws AllocationError {
            for (int i = 0; i < c.constraints().size(); i++) {
                DeviceConstraint dc = c.constraints().get(i);
                if (dc.getMatchAttribute() == null && dc.getDistinctAttribute() == null) {
                    throw new AllocationError("claim " + key(c.claim()) + ", constraint #" + i
                            + ": empty constraint (unsupported constraint type?)");
                }
            }
            for (List<DeviceRequest> alts : c.requests()) {
                for (DeviceRequest alt : alts) {
                    for (int i = 0; i < alt.selectors().size(); i++) {
                        if (alt.selectors().get(i).getCel() == null) {
                            throw new AllocationError("claim " + key(c.claim()) + ", request " + alt.name()
                                    + ", selector #" + i + ": CEL expression empty (unsupported selector type?)");
                        }
                    }
                }
            }
        }

        private boolean claim(int ci) throws AllocationError {
            if (ci == claims.size()) {
                return true;
            }
            return request(ci, 0);
        }

        private boolean request(int ci, int ri) throws AllocationError {
            ClaimRequests c = claims.get(ci);
            if (ri == c.requests().size()) {
                return claim(ci + 1);
            }
            int rest = leastAfter(c, ri);
            for (DeviceRequest alt : c.requests().get(ri)) {
                List<Candidate> options = selectable(c, alt);
                int need = alt.all() ? options.size() : (int) alt.count();
                if (chosen.get(ci).size() + need + rest > MAX_RESULTS) {
                    continue; // past the claim's limit whatever the later requests choose
                }
                if (alt.all()) {
                    if (!options.isEmpty() && devices(ci, ri, alt, options, options.size(), 0, true)) {
                        return true;
                    }
                } else if (devices(ci, ri, alt, options, (int) alt.count(), 0, false)) {
                    return true;
                }
            }
            return false;
        }

        /** The fewest devices the requests after {@code ri} can take (an "All" request at least one). */
        private static int leastAfter(ClaimRequests c, int ri) {
            int n = 0;
            for (int i = ri + 1; i < c.requests().size(); i++) {
                n += c.requests().get(i).stream()
                        .mapToInt(a -> a.all() ? 1 : (int) a.count())
                        .min()
                        .orElse(0);
            }
            return n;
        }

        /**
         * Places the {@code need} devices of a request, from {@code from} on in {@code options}
         * (a request's devices are chosen in order, so no two orders of the same set are tried);
         * for "All" every option must be taken.
         */
        private boolean devices(
                int ci, int ri, DeviceRequest alt, List<Candidate> options, int need, int from, boolean all)
                throws AllocationError {
            if (need == 0) {
                return request(ci, ri + 1);
            }
            if (chosen.get(ci).size() + need > MAX_RESULTS) {
                return false; // a claim's results are limited: another alternative may fit
            }
            if (deadline != 0 && System.nanoTime() - deadline > 0) {
                throw new TimedOut();
            }
            for (int i = from; i < options.size(); i++) {
                Candidate d = options.get(i);
                if (take(ci, alt, d)) {
                    if (devices(ci, ri, alt, options, need - 1, i + 1, all)) {
                        return true;
                    }
                    release(ci, alt, d);
                }
                if (all) {
                    return false;
                }
            }
            return false;
        }

        private boolean take(int ci, DeviceRequest alt, Candidate d) throws AllocationError {
            if (!alt.adminAccess() && (allocated.contains(d.id()) || used.contains(d.id()) || !countersFit(d))) {
                return false;
            }
            // admin access shares a device with other claims, not twice within its own
            if (alt.adminAccess()
                    && chosen.get(ci).stream().anyMatch(ch -> ch.device().id().equals(d.id()))) {
                return false;
            }
            List<ConstraintState> cs = constraints.get(ci);
            int added = 0;
            for (; added < cs.size(); added++) {
                if (!cs.get(added).add(alt, d)) {
                    break;
                }
            }
            if (added < cs.size()) {
                for (int i = 0; i < added; i++) {
                    cs.get(i).remove(alt, d);
                }
                if (alt.all()) {
                    // every device must be taken, so no other choice can meet the constraint
                    throw new AllocationError("claim " + key(claims.get(ci).claim()) + ", request " + alt.name()
                            + ": cannot add device " + d.id() + " because a claim constraint would not be satisfied");
                }
                return false;
            }
            if (!alt.adminAccess()) {
                used.add(d.id());
                consume(taken, d.pool(), d.device(), BigDecimal.ONE);
            }
            chosen.get(ci).add(new Chosen(alt, d));
            return true;
        }

        private void release(int ci, DeviceRequest alt, Candidate d) {
            List<Chosen> c = chosen.get(ci);
            c.remove(c.size() - 1);
            for (ConstraintState s : constraints.get(ci)) {
                s.remove(alt, d);
            }
            if (!alt.adminAccess()) {
                used.remove(d.id());
                consume(taken, d.pool(), d.device(), BigDecimal.ONE.negate());
            }
        }

        private boolean countersFit(Candidate d) {
            if (d.device().getConsumesCounters() == null) {
                return true;
            }
            for (DeviceCounterConsumption c : d.device().getConsumesCounters()) {
                Map<String, BigDecimal> have = d.pool().counters.get(c.getCounterSet());
                if (have == null || c.getCounters() == null) {
                    return have != null;
                }
                for (var e : c.getCounters().entrySet()) {
                    BigDecimal total = have.get(e.getKey());
                    if (total == null) {
                        return false;
                    }
                    BigDecimal inUse = get(consumed, d, c.getCounterSet(), e.getKey())
                            .add(get(taken, d, c.getCounterSet(), e.getKey()));
                    if (inUse.add(DevicePools.amount(e.getValue())).compareTo(total) > 0) {
                        return false;
                    }
                }
            }
            return true;
        }

        private BigDecimal get(
                Map<String, Map<String, Map<String, BigDecimal>>> m, Candidate d, String set, String counter) {
            return m.getOrDefault(d.pool().id(), Map.of())
                    .getOrDefault(set, Map.of())
                    .getOrDefault(counter, BigDecimal.ZERO);
        }

        /** The node's devices that match the request and tolerate its taints, in pool order. */
        private List<Candidate> selectable(ClaimRequests c, DeviceRequest alt) throws AllocationError {
            List<Candidate> out = new ArrayList<>();
            Set<Pool> seen = new HashSet<>();
            for (Candidate d : candidates) {
                if (alt.all() && seen.add(d.pool())) {
                    if (d.pool().incomplete) {
                        throw new AllocationError("claim " + key(c.claim()) + ", request " + alt.name()
                                + ": asks for all devices, but resource pool "
                                + d.pool().id()
                                + " is currently being updated");
                    }
                    if (d.pool().invalid) {
                        throw new AllocationError("claim " + key(c.claim()) + ", request " + alt.name()
                                + ": asks for all devices, but resource pool "
                                + d.pool().id()
                                + " is currently invalid");
                    }
                }
                // upstream takes nothing from a pool being updated: it may not be the best choice
                if (!d.pool().invalid
                        && !d.pool().incomplete
                        && tolerated(d.device(), alt.tolerations())
                        && matches(c, alt, d)) {
                    out.add(d);
                }
            }
            return out;
        }

        private boolean matches(ClaimRequests c, DeviceRequest alt, Candidate d) throws AllocationError {
            Map<Candidate, Boolean> byDevice = matches.computeIfAbsent(alt, k -> new IdentityHashMap<>());
            Boolean m = byDevice.get(d);
            if (m == null) {
                m = selectorsMatch(
                                "class " + alt.deviceClass().getMetadata().getName(),
                                alt.deviceClass().getSpec() == null
                                        ? null
                                        : alt.deviceClass().getSpec().getSelectors(),
                                d)
                        && selectorsMatch("claim " + key(c.claim()), alt.selectors(), d);
                byDevice.put(d, m);
            }
            return m;
        }

        private boolean selectorsMatch(String owner, List<DeviceSelector> selectors, Candidate d)
                throws AllocationError {
            if (selectors == null) {
                return true;
            }
            for (int i = 0; i < selectors.size(); i++) {
                DeviceSelector s = selectors.get(i);
                if (s.getCel() == null || s.getCel().getExpression() == null) {
                    continue;
                }
                CelSelectors.Compiled compiled = cel.compile(s.getCel().getExpression());
                if (compiled.error() != null) {
                    throw new AllocationError(owner + ": selector #" + i + ": CEL compile error: " + compiled.error());
                }
                Map<String, Object> input =
                        celInputs.computeIfAbsent(d, k -> CelDevice.of(k.pool().driver, k.device()));
                try {
                    if (!CelSelectors.matches(compiled, input)) {
                        return false;
                    }
                } catch (CelSelectors.EvalException e) {
                    throw new AllocationError(owner + ": selector #" + i + ": CEL runtime error: " + e.getMessage());
                }
            }
            return true;
        }

        private AllocationResult result(ClaimRequests c, List<Chosen> devices) throws AllocationError {
            List<DeviceRequestAllocationResult> results = new ArrayList<>();
            for (Chosen ch : devices) {
                DeviceRequestAllocationResultBuilder b = new DeviceRequestAllocationResultBuilder()
                        .withRequest(ch.request().name())
                        .withDriver(ch.device().pool().driver)
                        .withPool(ch.device().pool().name)
                        .withDevice(ch.device().device().getName());
                if (ch.request().adminAccess()) {
                    b.withAdminAccess(true);
                }
                if (!ch.request().tolerations().isEmpty()) {
                    b.withTolerations(ch.request().tolerations());
                }
                results.add(b.build());
            }
            return new AllocationResultBuilder()
                    .withNewDevices()
                    .withResults(results)
                    .withConfig(config(c, devices))
                    .endDevices()
                    .withNodeSelector(nodeSelector(devices))
                    .build();
        }

        /** The classes' configuration of the requests allocated, then the claim's for those requests. */
        private List<DeviceAllocationConfiguration> config(ClaimRequests c, List<Chosen> devices) {
            List<DeviceAllocationConfiguration> out = new ArrayList<>();
            List<DeviceRequest> served = new ArrayList<>();
            for (Chosen ch : devices) {
                if (!served.contains(ch.request())) {
                    served.add(ch.request());
                }
            }
            // a class's configuration once, naming every request served from that class
            Map<String, List<DeviceAllocationConfiguration>> byClass = new HashMap<>();
            for (DeviceRequest r : served) {
                if (r.deviceClass().getSpec() == null
                        || r.deviceClass().getSpec().getConfig() == null) {
                    continue;
                }
                List<DeviceAllocationConfiguration> added =
                        byClass.get(r.deviceClass().getMetadata().getName());
                if (added != null) {
                    added.forEach(a -> a.getRequests().add(r.name()));
                    continue;
                }
                added = new ArrayList<>();
                for (DeviceClassConfiguration cc : r.deviceClass().getSpec().getConfig()) {
                    added.add(new DeviceAllocationConfigurationBuilder()
                            .withSource("FromClass")
                            .withRequests(new ArrayList<>(List.of(r.name())))
                            .withOpaque(cc.getOpaque())
                            .build());
                }
                out.addAll(added);
                byClass.put(r.deviceClass().getMetadata().getName(), added);
            }
            var spec = c.claim().getSpec().getDevices();
            if (spec.getConfig() != null) {
                for (DeviceClaimConfiguration cc : spec.getConfig()) {
                    boolean applies = cc.getRequests() == null
                            || cc.getRequests().isEmpty()
                            || served.stream()
                                    .anyMatch(r -> cc.getRequests().contains(r.name())
                                            || cc.getRequests().contains(r.parent()));
                    if (applies) {
                        out.add(new DeviceAllocationConfigurationBuilder()
                                .withSource("FromClaim")
                                .withRequests(cc.getRequests())
                                .withOpaque(cc.getOpaque())
                                .build());
                    }
                }
            }
            return out;
        }

        /**
         * Where the allocation can be used: the node, when a device is local to it; everywhere
         * (null) when every device is reachable from all nodes; else the requirements of the
         * devices' single-term node selectors together.
         */
        private NodeSelector nodeSelector(List<Chosen> devices) throws AllocationError {
            List<NodeSelectorRequirement> fields = new ArrayList<>();
            List<NodeSelectorRequirement> exprs = new ArrayList<>();
            for (Chosen ch : devices) {
                Candidate d = ch.device();
                if (d.reach() == DevicePools.Reach.NODE) {
                    return new NodeSelectorBuilder()
                            .addNewNodeSelectorTerm()
                            .withMatchFields(new NodeSelectorRequirementBuilder()
                                    .withKey("metadata.name")
                                    .withOperator("In")
                                    .withValues(node.getMetadata().getName())
                                    .build())
                            .endNodeSelectorTerm()
                            .build();
                }
                if (d.selector() != null) {
                    List<NodeSelectorTerm> terms = d.selector().getNodeSelectorTerms();
                    if (terms.size() > 1) {
                        throw new AllocationError(
                                "unsupported ResourceSlice.NodeSelector with " + terms.size() + " terms");
                    }
                    if (terms.size() == 1) {
                        addNew(terms.get(0).getMatchFields(), fields);
                        addNew(terms.get(0).getMatchExpressions(), exprs);
                    }
                }
            }
            if (fields.isEmpty() && exprs.isEmpty()) {
                return null;
            }
            return new NodeSelectorBuilder()
                    .addNewNodeSelectorTerm()
                    .withMatchFields(fields.isEmpty() ? null : fields)
                    .withMatchExpressions(exprs.isEmpty() ? null : exprs)
                    .endNodeSelectorTerm()
                    .build();
        }

        private static void addNew(List<NodeSelectorRequirement> from, List<NodeSelectorRequirement> into) {
            if (from != null) {
                for (NodeSelectorRequirement r : from) {
                    if (!into.contains(r)) {
                        into.add(r);
                    }
                }
            }
        }
    }

    private record Chosen(DeviceRequest request, Candidate device) {}

    /** A device with a NoSchedule or NoExecute taint needs a toleration of it. */
    static boolean tolerated(Device d, List<DeviceToleration> tolerations) {
        if (d.getTaints() == null) {
            return true;
        }
        for (DeviceTaint t : d.getTaints()) {
            if ("None".equals(t.getEffect())) {
                continue;
            }
            if (tolerations.stream().noneMatch(tol -> tolerates(tol, t))) {
                return false;
            }
        }
        return true;
    }

    private static boolean tolerates(DeviceToleration tol, DeviceTaint t) {
        if (tol.getEffect() != null
                && !tol.getEffect().isEmpty()
                && !tol.getEffect().equals(t.getEffect())) {
            return false;
        }
        if (tol.getKey() == null || tol.getKey().isEmpty()) {
            return "Exists".equals(tol.getOperator());
        }
        if (!tol.getKey().equals(t.getKey())) {
            return false;
        }
        return "Exists".equals(tol.getOperator())
                || Objects.equals(
                        tol.getValue() == null ? "" : tol.getValue(), t.getValue() == null ? "" : t.getValue());
    }

    /** The claim as upstream's messages name it (klog.KObj): namespace/name, or the name alone. */
    static String key(ResourceClaim c) {
        String ns = c.getMetadata().getNamespace();
        return ns == null || ns.isEmpty()
                ? c.getMetadata().getName()
                : ns + "/" + c.getMetadata().getName();
    }

    /** A claim's constraint as the search holds it: the value the devices so far agree on, or the values they took. */
    private static final class ConstraintState {
        private final DeviceConstraint c;
        private final Map<Object, Integer> values = new HashMap<>();

        ConstraintState(DeviceConstraint c) {
            this.c = c;
        }

        private boolean applies(DeviceRequest r) {
            return c.getRequests() == null
                    || c.getRequests().isEmpty()
                    || c.getRequests().contains(r.name())
                    || c.getRequests().contains(r.parent());
        }

        private String attribute() {
            return c.getMatchAttribute() != null ? c.getMatchAttribute() : c.getDistinctAttribute();
        }

        boolean add(DeviceRequest r, Candidate d) {
            if (!applies(r) || attribute() == null) {
                return true;
            }
            Object v = CelDevice.value(CelDevice.attribute(d.pool().driver, d.device(), attribute()));
            if (v == null) {
                return false;
            }
            if (c.getMatchAttribute() != null ? !values.isEmpty() && !values.containsKey(v) : values.containsKey(v)) {
                return false;
            }
            values.merge(v, 1, Integer::sum);
            return true;
        }

        void remove(DeviceRequest r, Candidate d) {
            if (!applies(r) || attribute() == null) {
                return;
            }
            Object v = CelDevice.value(CelDevice.attribute(d.pool().driver, d.device(), attribute()));
            if (v != null) {
                values.computeIfPresent(v, (k, n) -> n == 1 ? null : n - 1);
            }
        }
    }
}
