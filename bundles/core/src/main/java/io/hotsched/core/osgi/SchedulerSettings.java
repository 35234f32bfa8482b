package io.hotsched.core.osgi;

import io.hotsched.core.runtime.CallWatch;
import io.hotsched.core.settings.Min;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Platform settings of the scheduler: Config Admin PID {@code io.hotsched.scheduler} ({@code etc/io.hotsched.scheduler.cfg}). */
@ObjectClassDefinition(name = "hotsched scheduler", description = "Platform settings of the scheduler core")
public @interface SchedulerSettings {

    @AttributeDefinition(description = "The KubeSchedulerConfiguration file; empty: --config, else etc/scheduler.yaml")
    String configFile() default "";

    @AttributeDefinition(description = "How often the configuration file is checked for changes, in seconds")
    @Min(1)
    int configPollSeconds() default 2;

    @AttributeDefinition(description = "Binding cycles running at once")
    @Min(1)
    int bindingThreads() default 16;

    @AttributeDefinition(description = "Seconds an assumed pod whose binding was sent waits to show up in the cluster")
    @Min(1)
    int assumedPodTtlSeconds() default 30;

    @AttributeDefinition(
            description = "Seconds a leaving plugin bundle waits for the scheduling attempts still using it")
    @Min(0)
    int pluginRemovalWaitSeconds() default 10;

    @AttributeDefinition(
            description = "Failed attempts in a row after which a plugin is quarantined; 0 never quarantines")
    @Min(0)
    int quarantineThreshold() default 5;

    @AttributeDefinition(
            description = "CPU milliseconds per second one plugin may use, averaged over pluginUsageWindowSeconds, "
                    + "before it is quarantined; 0: no limit")
    @Min(0)
    long pluginCpuMillisPerSecond() default 0;

    @AttributeDefinition(
            description = "MiB per second one plugin may allocate, averaged over pluginUsageWindowSeconds, before it "
                    + "is quarantined; 0: no limit")
    @Min(0)
    long pluginAllocatedMegabytesPerSecond() default 0;

    @AttributeDefinition(description = "Seconds over which a plugin's CPU time and allocation are averaged")
    @Min(1)
    int pluginUsageWindowSeconds() default 60;

    @AttributeDefinition(
            description =
                    "One plugin call in how many (on average, per thread) is measured for CPU time and allocation")
    @Min(1)
    int pluginUsageSampling() default CallWatch.DEFAULT_SAMPLING_PERIOD;

    @AttributeDefinition(
            description =
                    "Of the pods a profile with a plugin version in shadow decides, the share the shadow runs for, in percent")
    @Min(0)
    int shadowSamplePercent() default 100;

    @AttributeDefinition(
            description =
                    "The CPU time shadows may take, in percent of the scheduling loop's and its workers' over the last"
                            + " second; over it, pods are skipped and counted")
    @Min(0)
    int shadowCpuSharePercent() default 25;

    @AttributeDefinition(
            description = "Observe-only mode: the scheduler name (another scheduler's, such as default-scheduler) "
                    + "whose pods observeProfile decides for without binding them; empty: off")
    String observeSchedulerName() default "";

    @AttributeDefinition(
            description = "Observe-only mode: the profile of the configuration (its schedulerName) that decides for "
                    + "the pods of observeSchedulerName; empty: off")
    String observeProfile() default "";

    @AttributeDefinition(description = "How many pods' last attempts are kept for sched:explain")
    @Min(0)
    int explanations() default 10000;

    @AttributeDefinition(description = "Milliseconds one PreFilter call may take (0: no limit)")
    @Min(0)
    long timeoutPreFilterMillis() default 10_000;

    @AttributeDefinition(description = "Milliseconds one Filter call (one node) may take")
    @Min(0)
    long timeoutFilterMillis() default 1_000;

    @AttributeDefinition(description = "Milliseconds one PostFilter call (preemption) may take")
    @Min(0)
    long timeoutPostFilterMillis() default 30_000;

    @AttributeDefinition(description = "Milliseconds one PreScore call may take")
    @Min(0)
    long timeoutPreScoreMillis() default 10_000;

    @AttributeDefinition(description = "Milliseconds one Score call (one node) may take")
    @Min(0)
    long timeoutScoreMillis() default 1_000;

    @AttributeDefinition(description = "Milliseconds one Reserve call may take")
    @Min(0)
    long timeoutReserveMillis() default 10_000;

    @AttributeDefinition(description = "Milliseconds one Permit call may take (not the wait it asks for)")
    @Min(0)
    long timeoutPermitMillis() default 10_000;

    @AttributeDefinition(description = "Milliseconds one PreBind call may take")
    @Min(0)
    long timeoutPreBindMillis() default 60_000;

    @AttributeDefinition(description = "Milliseconds one Bind call may take")
    @Min(0)
    long timeoutBindMillis() default 60_000;

    @AttributeDefinition(description = "Milliseconds one PostBind call may take")
    @Min(0)
    long timeoutPostBindMillis() default 60_000;

    @AttributeDefinition(description = "Milliseconds one Unreserve call may take")
    @Min(0)
    long timeoutUnreserveMillis() default 10_000;

    @AttributeDefinition(
            description = "Milliseconds one AddPod or RemovePod call of a PreFilter plugin (one node) may take")
    @Min(0)
    long timeoutPreFilterExtensionMillis() default 1_000;

    @AttributeDefinition(description = "Milliseconds one NormalizeScore call may take")
    @Min(0)
    long timeoutNormalizeScoreMillis() default 10_000;

    @AttributeDefinition(
            description = "Milliseconds one PreEnqueue call may take; a late one is a fault when it returns (it runs "
                    + "under the queue's lock and is not given up)")
    @Min(0)
    long timeoutPreEnqueueMillis() default 10_000;

    @AttributeDefinition(
            description = "Milliseconds the scheduling loop waits for an attempt's extenders before it goes on with "
                    + "other pods, leaving that attempt to finish when they answer")
    @Min(0)
    long extenderWaitMillis() default 100;

    @AttributeDefinition(
            description =
                    "host:port where /metrics (Prometheus text) and /healthz are served over HTTP; empty: not served")
    String metricsAddress() default "";

    @AttributeDefinition(
            description = "Switches named as kube-scheduler's --feature-gates, Name=true|false separated by commas; "
                    + "known: SchedulerAsyncPreemption, SchedulerPopFromBackoffQ (both default true, as upstream's)")
    String featureGates() default "";
}
