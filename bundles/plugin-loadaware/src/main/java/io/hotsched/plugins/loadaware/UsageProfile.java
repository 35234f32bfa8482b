package io.hotsched.plugins.loadaware;

import io.fabric8.kubernetes.api.model.Node;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The thresholds Filter applies on one node: the plugin's, with each non-empty section of the
 * node's {@code scheduling.koordinator.sh/usage-thresholds} annotation replacing the plugin's
 * section. Invalid JSON leaves the plugin's.
 */
record UsageProfile(
        Map<String, Long> usageThresholds,
        Map<String, Long> prodUsageThresholds,
        Map<String, Long> aggregatedThresholds,
        String aggregationType,
        long aggregatedDurationMillis) {

    static final String ANNOTATION = "scheduling.koordinator.sh/usage-thresholds";

    static UsageProfile of(LoadAwareArgs args, Node node) {
        Map<String, Long> usage = args.usageThresholds();
        Map<String, Long> prod = args.prodUsageThresholds();
        Map<String, Long> agg = args.hasAggregatedUsageProfile() ? args.aggregatedUsageThresholds() : Map.of();
        String aggType = args.hasAggregatedUsageProfile() ? args.usageAggregationType() : "";
        long aggDuration = args.usageAggregatedDurationMillis();
        Map<String, String> annotations =
                node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
        JsonNode custom = Json.read(annotations == null ? null : annotations.get(ANNOTATION));
        if (custom != null && custom.isObject()) {
            Map<String, Long> u = Json.longs(custom.get("usageThresholds"));
            if (!u.isEmpty()) {
                usage = u;
            }
            Map<String, Long> p = Json.longs(custom.get("prodUsageThresholds"));
            if (!p.isEmpty()) {
                prod = p;
            }
            JsonNode a = custom.get("aggregatedUsage");
            if (a != null && a.isObject()) {
                Map<String, Long> at = Json.longs(a.get("usageThresholds"));
                String type = a.path("usageAggregationType").asText("");
                if (!at.isEmpty() && !type.isEmpty()) {
                    agg = at;
                    aggType = type;
                    try {
                        aggDuration = GoDuration.millis(
                                a.path("usageAggregatedDuration").asText(""));
                    } catch (IllegalArgumentException e) {
                        aggDuration = 0;
                    }
                }
            }
        }
        return new UsageProfile(usage, prod, agg, aggType, aggDuration);
    }

    boolean aggregated() {
        return !aggregatedThresholds.isEmpty() && !aggregationType.isEmpty();
    }
}
