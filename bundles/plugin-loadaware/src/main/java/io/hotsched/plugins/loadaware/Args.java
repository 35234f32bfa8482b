package io.hotsched.plugins.loadaware;

import java.util.List;
import java.util.Map;

/**
 * {@code LoadAwareSchedulingArgs} as written in a profile's {@code pluginConfig} (v1 JSON field
 * names), before defaulting; {@link LoadAwareArgs} is what the plugin runs with.
 */
public final class Args {
    public Boolean filterExpiredNodeMetrics;
    public Long nodeMetricExpirationSeconds;
    public Boolean enableScheduleWhenNodeMetricsExpired;
    public Map<String, Long> resourceWeights;
    public Long dominantResourceWeight;
    public Map<String, Long> usageThresholds;
    public Map<String, Long> prodUsageThresholds;
    public Boolean prodUsageIncludeSys;
    public Boolean scoreAccordingProdUsage;
    public String estimator;
    public Map<String, Long> estimatedScalingFactors;
    public Long estimatedSecondsAfterPodScheduled;
    public Long estimatedSecondsAfterInitialized;
    public Boolean allowCustomizeEstimation;
    public Aggregated aggregated;
    public List<String> supportedResources;

    /** {@code aggregated}: thresholds and scoring on aggregated (percentile) usage. */
    public static final class Aggregated {
        public Map<String, Long> usageThresholds;
        public String usageAggregationType;
        public String usageAggregatedDuration;
        public String scoreAggregationType;
        public String scoreAggregatedDuration;
    }
}
