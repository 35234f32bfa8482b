package io.hotsched.plugins.loadaware;

import io.hotsched.api.framework.InvalidArgsException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The arguments the plugin runs with: Koordinator's v1 defaulting applied, then its validation.
 * Resource maps are sorted by name, which is also the order thresholds are checked in.
 */
public record LoadAwareArgs(
        boolean filterExpiredNodeMetrics,
        long nodeMetricExpirationSeconds,
        boolean enableScheduleWhenNodeMetricsExpired,
        Map<String, Long> resourceWeights,
        long dominantResourceWeight,
        Map<String, Long> usageThresholds,
        Map<String, Long> prodUsageThresholds,
        boolean prodUsageIncludeSys,
        boolean scoreAccordingProdUsage,
        Map<String, Long> estimatedScalingFactors,
        Long estimatedSecondsAfterPodScheduled,
        Long estimatedSecondsAfterInitialized,
        boolean allowCustomizeEstimation,
        Map<String, Long> aggregatedUsageThresholds,
        String usageAggregationType,
        long usageAggregatedDurationMillis,
        String scoreAggregationType,
        long scoreAggregatedDurationMillis,
        List<String> supportedResources) {

    static final Set<String> AGGREGATION_TYPES = Set.of("avg", "p50", "p90", "p95", "p99");
    static final String DEFAULT_ESTIMATOR = "defaultEstimator";

    /** With Koordinator's v1 defaults, as a profile gets them. */
    public static LoadAwareArgs defaulted(Args a) throws InvalidArgsException {
        return validated(withDefaults(a));
    }

    /**
     * With the v1 defaults but not validated: how upstream's unit tests of the estimator set args
     * in code (a scaling factor of 110, for one). Not for profiles.
     */
    public static LoadAwareArgs defaultedUnchecked(Args a) {
        try {
            return build(withDefaults(a), false);
        } catch (InvalidArgsException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Args withDefaults(Args a) {
        Map<String, Long> weights = sorted(a.resourceWeights);
        long dominant = a.dominantResourceWeight == null ? 0 : a.dominantResourceWeight;
        if (weights.isEmpty() && dominant == 0) {
            weights.put("cpu", 1L);
            weights.put("memory", 1L);
        }
        Map<String, Long> thresholds = sorted(a.usageThresholds);
        if (thresholds.isEmpty()) {
            thresholds.put("cpu", 65L);
            thresholds.put("memory", 95L);
        }
        Map<String, Long> factors = sorted(a.estimatedScalingFactors);
        factors.putIfAbsent("cpu", 85L);
        factors.putIfAbsent("memory", 70L);
        Args d = copy(a);
        d.filterExpiredNodeMetrics = a.filterExpiredNodeMetrics == null ? Boolean.TRUE : a.filterExpiredNodeMetrics;
        d.nodeMetricExpirationSeconds =
                a.nodeMetricExpirationSeconds == null ? Long.valueOf(180) : a.nodeMetricExpirationSeconds;
        d.enableScheduleWhenNodeMetricsExpired =
                a.enableScheduleWhenNodeMetricsExpired == null ? Boolean.FALSE : a.enableScheduleWhenNodeMetricsExpired;
        d.resourceWeights = weights;
        d.usageThresholds = thresholds;
        d.estimatedScalingFactors = factors;
        return d;
    }

    /** As given, without defaults (the shape upstream's unit tests of the parts use). */
    public static LoadAwareArgs asGiven(Args a) throws InvalidArgsException {
        return validated(a);
    }

    private static LoadAwareArgs validated(Args a) throws InvalidArgsException {
        return build(a, true);
    }

    private static LoadAwareArgs build(Args a, boolean check) throws InvalidArgsException {
        if (check) {
            check(a);
        }
        Args.Aggregated agg = a.aggregated == null ? new Args.Aggregated() : a.aggregated;
        String usageType = aggregationType("aggregated.usageAggregationType", agg.usageAggregationType);
        String scoreType = aggregationType("aggregated.scoreAggregationType", agg.scoreAggregationType);
        long usageDuration = duration("aggregated.usageAggregatedDuration", agg.usageAggregatedDuration);
        long scoreDuration = duration("aggregated.scoreAggregatedDuration", agg.scoreAggregatedDuration);
        return new LoadAwareArgs(
                Boolean.TRUE.equals(a.filterExpiredNodeMetrics),
                a.nodeMetricExpirationSeconds == null ? 0 : a.nodeMetricExpirationSeconds,
                Boolean.TRUE.equals(a.enableScheduleWhenNodeMetricsExpired),
                sorted(a.resourceWeights),
                a.dominantResourceWeight == null ? 0 : a.dominantResourceWeight,
                sorted(a.usageThresholds),
                sorted(a.prodUsageThresholds),
                Boolean.TRUE.equals(a.prodUsageIncludeSys),
                Boolean.TRUE.equals(a.scoreAccordingProdUsage),
                sorted(a.estimatedScalingFactors),
                a.estimatedSecondsAfterPodScheduled,
                a.estimatedSecondsAfterInitialized,
                Boolean.TRUE.equals(a.allowCustomizeEstimation),
                sorted(agg.usageThresholds),
                usageType,
                usageDuration,
                scoreType,
                scoreDuration,
                a.supportedResources == null ? List.of() : List.copyOf(a.supportedResources));
    }

    /** Koordinator's validation of LoadAwareSchedulingArgs. */
    private static void check(Args a) throws InvalidArgsException {
        if (a.nodeMetricExpirationSeconds != null && a.nodeMetricExpirationSeconds <= 0) {
            throw new InvalidArgsException(
                    "nodeMetricExpiredSeconds", a.nodeMetricExpirationSeconds, "must be greater than 0");
        }
        Map<String, Long> weights = sorted(a.resourceWeights);
        Map<String, Long> factors = sorted(a.estimatedScalingFactors);
        for (Map.Entry<String, Long> e : weights.entrySet()) {
            if (e.getValue() <= 0 || e.getValue() > 100) {
                throw new InvalidArgsException(
                        "resourceWeights[" + e.getKey() + "]", e.getValue(), "must be in the range (0, 100]");
            }
            if (!factors.containsKey(e.getKey())) {
                throw new InvalidArgsException(
                        "resourceWeights[" + e.getKey() + "]",
                        e.getValue(),
                        "the resource must also be in estimatedScalingFactors");
            }
        }
        long dominant = a.dominantResourceWeight == null ? 0 : a.dominantResourceWeight;
        if (dominant < 0 || dominant > 100) {
            throw new InvalidArgsException("dominantResourceWeight", dominant, "must be in the range [0, 100]");
        }
        percentages("usageThresholds", a.usageThresholds);
        percentages("prodUsageThresholds", a.prodUsageThresholds);
        for (Map.Entry<String, Long> e : factors.entrySet()) {
            if (e.getValue() <= 0 || e.getValue() > 100) {
                throw new InvalidArgsException(
                        "estimatedScalingFactors[" + e.getKey() + "]", e.getValue(), "must be in the range (0, 100]");
            }
        }
        String estimator = a.estimator == null || a.estimator.isEmpty() ? DEFAULT_ESTIMATOR : a.estimator;
        if (!estimator.equals(DEFAULT_ESTIMATOR)) {
            throw new InvalidArgsException("estimator", estimator, "the only estimator is " + DEFAULT_ESTIMATOR);
        }
        if (a.aggregated != null) {
            percentages("aggregated.usageThresholds", a.aggregated.usageThresholds);
        }
    }

    /** The resources the plugin compares: cpu, memory, and every one an argument names; sorted. */
    public List<String> resourceNames() {
        TreeSet<String> names = new TreeSet<>(List.of("cpu", "memory"));
        names.addAll(usageThresholds.keySet());
        names.addAll(prodUsageThresholds.keySet());
        names.addAll(aggregatedUsageThresholds.keySet());
        names.addAll(resourceWeights.keySet());
        names.addAll(estimatedScalingFactors.keySet());
        names.addAll(supportedResources);
        return new ArrayList<>(names);
    }

    private static void percentages(String field, Map<String, Long> m) throws InvalidArgsException {
        if (m == null) {
            return;
        }
        for (Map.Entry<String, Long> e : m.entrySet()) {
            if (e.getValue() < 0 || e.getValue() > 100) {
                throw new InvalidArgsException(
                        field + "[" + e.getKey() + "]", e.getValue(), "must be in the range [0, 100]");
            }
        }
    }

    private static String aggregationType(String field, String t) throws InvalidArgsException {
        if (t == null || t.isEmpty()) {
            return "";
        }
        if (!AGGREGATION_TYPES.contains(t)) {
            throw new InvalidArgsException(field, t, "must be one of " + new TreeSet<>(AGGREGATION_TYPES));
        }
        return t;
    }

    private static long duration(String field, String d) throws InvalidArgsException {
        try {
            long ms = GoDuration.millis(d);
            if (ms < 0) {
                throw new InvalidArgsException(field, d, "must be 0 or more");
            }
            return ms;
        } catch (IllegalArgumentException e) {
            throw new InvalidArgsException(field, d, e.getMessage());
        }
    }

    private static Map<String, Long> sorted(Map<String, Long> m) {
        return m == null ? new TreeMap<>() : new TreeMap<>(m);
    }

    private static Args copy(Args a) {
        Args c = new Args();
        c.filterExpiredNodeMetrics = a.filterExpiredNodeMetrics;
        c.nodeMetricExpirationSeconds = a.nodeMetricExpirationSeconds;
        c.enableScheduleWhenNodeMetricsExpired = a.enableScheduleWhenNodeMetricsExpired;
        c.resourceWeights = a.resourceWeights == null ? null : new LinkedHashMap<>(a.resourceWeights);
        c.dominantResourceWeight = a.dominantResourceWeight;
        c.usageThresholds = a.usageThresholds;
        c.prodUsageThresholds = a.prodUsageThresholds;
        c.prodUsageIncludeSys = a.prodUsageIncludeSys;
        c.scoreAccordingProdUsage = a.scoreAccordingProdUsage;
        c.estimator = a.estimator;
        c.estimatedScalingFactors = a.estimatedScalingFactors;
        c.estimatedSecondsAfterPodScheduled = a.estimatedSecondsAfterPodScheduled;
        c.estimatedSecondsAfterInitialized = a.estimatedSecondsAfterInitialized;
        c.allowCustomizeEstimation = a.allowCustomizeEstimation;
        c.aggregated = a.aggregated;
        c.supportedResources = a.supportedResources;
        return c;
    }

    /** Whether the aggregated-usage profile is in force (thresholds and a type). */
    public boolean hasAggregatedUsageProfile() {
        return !aggregatedUsageThresholds.isEmpty() && !usageAggregationType.isEmpty();
    }
}
