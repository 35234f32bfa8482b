package io.hotsched.conformance.runner;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterPlugin;
import io.hotsched.api.framework.PreBindPlugin;
import io.hotsched.api.framework.PreEnqueuePlugin;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.ReservePlugin;
import io.hotsched.api.framework.Status;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.testing.FakeHandle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Cases of kind {@value #KIND}: a pod's whole way through a plugin that allocates claims
 * (DynamicResources' TestPlugin): PreEnqueue; PreFilter; Filter on every node; PostFilter when no
 * node passed (or PreFilter did not succeed); otherwise Reserve on the first node that passed, then
 * PreBind (or Unreserve before it, {@code unreserveBeforePreBind}), and Unreserve after it when
 * {@code unreserveAfterPreBind} (a failed bind). Every step's status is checked (left out: Success),
 * and at the end {@code claims} names the objects of {@code otherObjects} (by kind, namespace and
 * name) with the fields they must hold then; empty fields and nulls count as absent.
 */
final class ClaimCycleCases {

    static final String KIND = "preenqueue+prefilter+filter+postfilter+reserve+prebind";

    private ClaimCycleCases() {}

    static void run(Plugin plugin, JsonNode in, JsonNode want, FakeHandle handle) throws Exception {
        PodInfo pod = PodInfo.of(ConformanceRunner.pod(in.path("pod")));
        List<NodeInfo> nodes = ConformanceRunner.nodes(in);
        handle.setSnapshot(new Snapshot(nodes));
        if (plugin instanceof PreEnqueuePlugin pe) {
            Status st = pe.preEnqueue(pod);
            ConformanceRunner.assertStatus(want.path("preEnqueueStatus"), st, "PreEnqueue");
            if (!st.isSuccess()) {
                objects(want.path("objects"), handle);
                return;
            }
        }
        CycleState state = new CycleState();
        PreFilterResult r = ((PreFilterPlugin) plugin).preFilter(state, pod, new Snapshot(nodes));
        ConformanceRunner.assertStatus(want.path("preFilterStatus"), r.status(), "PreFilter");
        List<NodeInfo> passed = new ArrayList<>();
        Map<String, Status> failed = new LinkedHashMap<>();
        if (r.status().isSuccess()) {
            for (NodeInfo n : nodes) {
                Status st = ((FilterPlugin) plugin).filter(state, pod, n);
                ConformanceRunner.assertStatus(want.path("filterStatus").path(n.name()), st, "Filter on " + n.name());
                if (st == null || st.isSuccess()) {
                    passed.add(n);
                } else {
                    failed.put(n.name(), st);
                }
            }
        }
        if (passed.isEmpty()) {
            Status st = ((PostFilterPlugin) plugin)
                    .postFilter(state, pod, new NodeToStatus(failed, r.status()))
                    .status();
            ConformanceRunner.assertStatus(want.path("postFilterStatus"), st, "PostFilter");
        } else {
            String node = passed.get(0).name();
            ReservePlugin reserve = (ReservePlugin) plugin;
            Status st = reserve.reserve(state, pod, node);
            ConformanceRunner.assertStatus(want.path("reserveStatus"), st, "Reserve");
            if (st.isSuccess() && want.path("unreserveBeforePreBind").asBoolean(false)) {
                reserve.unreserve(state, pod, node);
            } else if (st.isSuccess()) {
                Status pb = ((PreBindPlugin) plugin).preBind(state, pod, node);
                ConformanceRunner.assertStatus(want.path("preBindStatus"), pb, "PreBind");
                if (want.path("unreserveAfterPreBind").asBoolean(false)) {
                    reserve.unreserve(state, pod, node);
                }
            }
        }
        objects(want.path("objects"), handle);
        if (want.has("reservationsLeft")) {
            Check.equal(
                    want.get("reservationsLeft").asInt(),
                    handle.reservations().of(plugin.name()).size(),
                    "records left in the framework's Reservations");
        }
    }

    /** Each expected object (kind, metadata.namespace/name, and the fields to compare) against the lister's copy. */
    private static void objects(JsonNode expected, FakeHandle handle) {
        for (JsonNode e : expected) {
            String kind = e.path("kind").asText();
            String ns = e.path("metadata").path("namespace").asText(null);
            String name = e.path("metadata").path("name").asText();
            // the listers hold what the plugin wrote (FakeCluster's updates land there)
            HasMetadata actual = kind.equals("ResourceClaim")
                    ? handle.listers().resourceClaims().get(ns, name)
                    : handle.object(kind, ns, name);
            Check.notNull(actual, kind + " " + ns + "/" + name + " exists");
            JsonNode got = ConformanceRunner.JSON.valueToTree(actual);
            for (String field : List.of("status", "spec")) {
                if (e.has(field)) {
                    Check.equal(prune(e.get(field)), prune(got.path(field)), kind + " " + name + " " + field);
                }
            }
            if (e.path("metadata").has("finalizers")) {
                Check.equal(
                        prune(e.path("metadata").get("finalizers")),
                        prune(got.path("metadata").path("finalizers")),
                        kind + " " + name + " finalizers");
            }
        }
    }

    /** The tree without nulls, empty arrays and empty objects (Go's omitempty on both sides). */
    static JsonNode prune(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) {
            return ConformanceRunner.JSON.missingNode();
        }
        if (n.isObject()) {
            ObjectNode out = ConformanceRunner.JSON.createObjectNode();
            n.properties().forEach(p -> {
                JsonNode v = prune(p.getValue());
                if (!v.isMissingNode()) {
                    out.set(p.getKey(), v);
                }
            });
            return out.isEmpty() ? ConformanceRunner.JSON.missingNode() : out;
        }
        if (n.isArray()) {
            ArrayNode out = ConformanceRunner.JSON.createArrayNode();
            n.forEach(v -> {
                JsonNode p = prune(v);
                if (!p.isMissingNode()) {
                    out.add(p);
                }
            });
            return out.isEmpty() ? ConformanceRunner.JSON.missingNode() : out;
        }
        return n;
    }
}
