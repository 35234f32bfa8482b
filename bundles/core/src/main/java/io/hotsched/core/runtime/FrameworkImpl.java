package io.hotsched.core.runtime;

import io.hotsched.api.framework.BindPlugin;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.NodeScores;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.PermitPlugin;
import io.hotsched.api.framework.PermitResult;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostBindPlugin;
import io.hotsched.api.framework.PostFilterPlugin;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.PreBindPlugin;
import io.hotsched.api.framework.PreEnqueuePlugin;
import io.hotsched.api.framework.PreFilterExtensions;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.QueueSortPlugin;
import io.hotsched.api.framework.QueuedPodInfo;
import io.hotsched.api.framework.ReservePlugin;
import io.hotsched.api.framework.ScoreExtensions;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.ext.FilterTransformer;
import io.hotsched.api.framework.ext.PostFilterTransformer;
import io.hotsched.api.framework.ext.PreFilterTransformer;
import io.hotsched.api.framework.ext.ScoreTransformer;
import io.hotsched.api.framework.ext.Transformation;
import io.hotsched.core.extender.Extenders;
import io.hotsched.core.metrics.Histogram;
import io.hotsched.core.metrics.SchedulerMetrics;
import io.hotsched.core.registry.Registration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugins of one profile, as configured at one moment, and the runners of every extension
 * point (upstream's frameworkImpl). Immutable once built: a configuration change or a plugin
 * bundle coming or going builds a new one and retires this one. A scheduling attempt pins the
 * framework it started with until its binding cycle ends; a retired framework closes its plugin
 * instances when its last pin is released.
 *
 * <p>Every plugin call is guarded: an exception becomes an {@link Code#ERROR} status naming the
 * plugin and is recorded as a fault of that plugin for the attempt.
 */
public final class FrameworkImpl {

    private static final Logger LOG = LoggerFactory.getLogger(FrameworkImpl.class);
    static final Duration MAX_PERMIT_WAIT = Duration.ofMinutes(15);

    final String profileName;
    final int percentageOfNodesToScore;
    final List<PluginInstance> instances;
    final List<Slot<PreEnqueuePlugin>> preEnqueue;
    final List<Slot<QueueSortPlugin>> queueSort;
    final List<Slot<PreFilterPlugin>> preFilter;
    final List<Slot<FilterPlugin>> filter;
    final List<Slot<PostFilterPlugin>> postFilter;
    final List<Slot<PreScorePlugin>> preScore;
    final List<Slot<ScorePlugin>> score;
    final Map<String, Integer> scoreWeights;
    final List<Slot<ReservePlugin>> reserve;
    final List<Slot<PermitPlugin>> permit;
    final List<Slot<PreBindPlugin>> preBind;
    final List<Slot<BindPlugin>> bind;
    final List<Slot<PostBindPlugin>> postBind;
    final List<Slot<PreFilterTransformer>> preFilterTransformers;
    final List<Slot<FilterTransformer>> filterTransformers;
    final List<Slot<ScoreTransformer>> scoreTransformers;
    final List<Slot<PostFilterTransformer>> postFilterTransformers;
    final Map<String, List<ClusterEventWithHint>> enqueueEvents;
    private final WaitingPodsImpl waitingPods;
    private final Extenders extenders;
    private final FrameworkServices services;
    private final SchedulerMetrics metrics;

    private final AtomicInteger pins = new AtomicInteger(1);
    private volatile boolean retired;
    private volatile String drainReason;
    private volatile boolean closed;

    FrameworkImpl(FrameworkBuilder.Parts p, WaitingPodsImpl waitingPods, FrameworkServices services) {
        this.profileName = p.profileName;
        this.extenders = p.extenders;
        this.percentageOfNodesToScore = p.percentageOfNodesToScore;
        this.instances = List.copyOf(p.instances);
        this.preEnqueue = List.copyOf(p.preEnqueue);
        this.queueSort = List.copyOf(p.queueSort);
        this.preFilter = List.copyOf(p.preFilter);
        this.filter = List.copyOf(p.filter);
        this.postFilter = List.copyOf(p.postFilter);
        this.preScore = List.copyOf(p.preScore);
        this.score = List.copyOf(p.score);
        this.scoreWeights = Map.copyOf(p.scoreWeights);
        this.reserve = List.copyOf(p.reserve);
        this.permit = List.copyOf(p.permit);
        this.preBind = List.copyOf(p.preBind);
        this.bind = List.copyOf(p.bind);
        this.postBind = List.copyOf(p.postBind);
        this.preFilterTransformers = List.copyOf(p.preFilterTransformers);
        this.filterTransformers = List.copyOf(p.filterTransformers);
        this.scoreTransformers = List.copyOf(p.scoreTransformers);
        this.postFilterTransformers = List.copyOf(p.postFilterTransformers);
        // a null list means "every event" (the plugin registered no EnqueueExtensions)
        this.enqueueEvents = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(p.enqueueEvents));
        this.waitingPods = waitingPods;
        this.services = services;
        this.metrics = services.metrics();
    }

    /** The configuration's extenders, as this framework was built with them. */
    public Extenders extenders() {
        return extenders;
    }

    public String profileName() {
        return profileName;
    }

    /** The profile's percentageOfNodesToScore, or the global one (0 = adaptive). */
    public int percentageOfNodesToScore() {
        return percentageOfNodesToScore;
    }

    public List<PluginInstance> instances() {
        return instances;
    }

    /** Which extension points each plugin serves here, by configured name (for the shell). */
    public Map<String, List<String>> pointsByPlugin() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        addPoints(out, "PreEnqueue", preEnqueue);
        addPoints(out, "QueueSort", queueSort);
        addPoints(out, "PreFilter", preFilter);
        addPoints(out, "PreFilterTransformer", preFilterTransformers);
        addPoints(out, "FilterTransformer", filterTransformers);
        addPoints(out, "Filter", filter);
        addPoints(out, "PostFilter", postFilter);
        addPoints(out, "PostFilterTransformer", postFilterTransformers);
        addPoints(out, "PreScore", preScore);
        addPoints(out, "ScoreTransformer", scoreTransformers);
        addPoints(out, "Score", score);
        addPoints(out, "Reserve", reserve);
        addPoints(out, "Permit", permit);
        addPoints(out, "PreBind", preBind);
        addPoints(out, "Bind", bind);
        addPoints(out, "PostBind", postBind);
        return out;
    }

    private static void addPoints(Map<String, List<String>> out, String point, List<? extends Slot<?>> slots) {
        for (Slot<?> s : slots) {
            out.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(point);
        }
    }

    /** Whether this framework runs an instance from {@code registration}. */
    public boolean uses(Registration registration) {
        for (PluginInstance i : instances) {
            if (i.registration() != null && i.registration().serviceId() == registration.serviceId()) {
                return true;
            }
        }
        return false;
    }

    public Map<String, List<ClusterEventWithHint>> enqueueEvents() {
        return enqueueEvents;
    }

    public io.hotsched.api.framework.WaitingPods waitingPods() {
        return waitingPods;
    }

    /**
     * Rejects every pod waiting in Permit on this framework, and any pod that starts waiting on it
     * from now on (its plugins are leaving).
     */
    public void drain(String message) {
        drainReason = message;
        waitingPods.rejectAll(message);
    }

    // ---- lifecycle: pins, retirement, close ---------------------------------------------------

    /** Takes a pin for one scheduling attempt; false when the framework is already closed. */
    public boolean pin() {
        while (true) {
            int n = pins.get();
            if (n <= 0) {
                return false;
            }
            if (pins.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    public void unpin() {
        if (pins.decrementAndGet() == 0) {
            closeInstances();
        }
    }

    /** Number of attempts pinned to this framework right now. */
    public int activePins() {
        return Math.max(0, pins.get() - (retired ? 0 : 1));
    }

    /** Takes the framework out of service; it closes once no attempt holds it. */
    public void retire() {
        if (!retired) {
            retired = true;
            unpin();
        }
    }

    public boolean retired() {
        return retired;
    }

    public boolean closed() {
        return closed;
    }

    private void closeInstances() {
        closed = true;
        for (PluginInstance i : instances) {
            RuntimeException e = i.close();
            if (e != null) {
                LOG.warn("Plugin {} failed to close: {}", i, e.toString());
            }
        }
    }

    // ---- guarded calls --------------------------------------------------------------------------

    private Status fault(CycleState state, PluginInstance instance, Throwable t, String what) {
        String message = what + ": " + (t.getMessage() == null ? t.getClass().getName() : t.getMessage());
        AttemptFaults.of(state).record(instance, message);
        LOG.debug("Plugin {} failed: {}", instance, message, t);
        return Status.error(new PluginFailure(message, t)).withPlugin(instance.name());
    }

    private long now() {
        CoarseClock c = services.clock();
        return c == null ? System.currentTimeMillis() : c.now();
    }

    /** An empty cycle state for the same attempt: its {@link Attempt} and the faults recorded so far carry over. */
    public static CycleState freshState(CycleState old) {
        CycleState fresh = new CycleState();
        old.read(Attempt.KEY).ifPresent(a -> fresh.write(Attempt.KEY, a));
        old.read(AttemptFaults.KEY).ifPresent(f -> fresh.write(AttemptFaults.KEY, f));
        return fresh;
    }

    /** How an error names a plugin call at {@code point}, as upstream words it. */
    public static String describeCall(String point, String plugin) {
        return PluginTimeouts.FILTER.equals(point)
                ? "running \"" + plugin + "\" filter plugin"
                : "running " + point + " plugin \"" + plugin + "\"";
    }

    /**
     * Marks, on the calling thread, that {@code state}'s attempt now waits for the extenders
     * {@code names}: past the extender wait the watchdog lets the loop move on. Null when calls
     * are not watched; give the result to {@link #endExtenderWait}.
     */
    CallWatch.Slot beginExtenderWait(CycleState state, String names) {
        CallWatch.Slot slot = watchSlot();
        if (slot != null) {
            slot.beginExtenders(state, names, now(), limit(PluginTimeouts.EXTENDER_WAIT));
        }
        return slot;
    }

    static void endExtenderWait(CallWatch.Slot slot) {
        if (slot != null) {
            slot.end();
        }
    }

    /** The calling thread's slot in the call watch, or null when calls are not watched. */
    CallWatch.Slot watchSlot() {
        CallWatch w = services.watch();
        return w == null ? null : w.slot();
    }

    private long limit(String point) {
        return services.timeouts() == null
                ? Long.MAX_VALUE
                : services.timeouts().millis(point);
    }

    /** A call that returned after its time-out: a fault of the plugin, and an error for the attempt. */
    private Status overtime(CycleState state, PluginInstance instance, String point, String what, long took) {
        String message = what + ": took " + took + "ms, over the " + limit(point) + "ms time-out for " + point;
        AttemptFaults.of(state).record(instance, message);
        LOG.warn("Plugin {} {}", instance, message);
        return Status.error(message).withPlugin(instance.name());
    }

    /** A plugin call's result, or the failure it became (exception or time-out). */
    private record Outcome<T>(T value, Status failure) {}

    /**
     * Runs one plugin call of a per-pod extension point: an exception or a call past the point's
     * time-out becomes an error status naming the plugin, recorded as its fault. (Filter and Score
     * inline the same steps: they run per node, where a lambda and a record per call would show.)
     */
    private <T> Outcome<T> call(
            CycleState state, PluginInstance instance, String point, String what, java.util.function.Supplier<T> body) {
        long limit = limit(point);
        CallWatch.Slot slot = watchSlot();
        long t0 = now();
        long timed = Attempt.timesPlugins(state) ? System.nanoTime() : 0;
        T value;
        if (slot != null) {
            slot.begin(state, instance, point, t0, limit);
        }
        try {
            value = body.get();
        } catch (RuntimeException e) {
            Outcome<T> failed = new Outcome<>(null, fault(state, instance, e, what));
            observePlugin(timed, instance.name(), point, Code.ERROR);
            return failed;
        } finally {
            if (slot != null) {
                slot.end();
            }
        }
        observePlugin(timed, instance.name(), point, codeOf(value));
        long took = now() - t0;
        if (took > limit) {
            return new Outcome<>(null, overtime(state, instance, point, what, took));
        }
        return new Outcome<>(value, null);
    }

    /** Counts a sampled plugin call that started at {@code startNanos}; 0 means the call was not timed. */
    private void observePlugin(long startNanos, String plugin, String point, Code code) {
        if (startNanos != 0) {
            metrics.pluginExecutionDuration
                    .with(plugin, point, SchedulerMetrics.status(code))
                    .observeSince(startNanos);
        }
    }

    /** The status code a plugin call's result carries, for the status label. */
    private static Code codeOf(Object value) {
        Status st = value instanceof Status s
                ? s
                : value instanceof PreFilterResult r
                        ? r.status()
                        : value instanceof PostFilterResult r
                                ? r.status()
                                : value instanceof PermitResult r
                                        ? r.status()
                                        : value instanceof Transformation t ? t.status() : null;
        return st == null ? Code.SUCCESS : st.code();
    }

    /**
     * For a sampled attempt, each of {@code slots}' histogram of successful calls at {@code point},
     * looked up once for the attempt instead of by labels per node; null when the attempt is not
     * timed.
     */
    private Histogram[] succeededHistograms(boolean timed, List<? extends Slot<?>> slots, String point) {
        if (!timed) {
            return null;
        }
        Histogram[] h = new Histogram[slots.size()];
        for (int i = 0; i < h.length; i++) {
            h[i] = metrics.pluginExecutionDuration.with(
                    slots.get(i).name(), point, SchedulerMetrics.status(Code.SUCCESS));
        }
        return h;
    }

    /**
     * scheduler_framework_extension_point_duration_seconds: each public {@code run<Point>} method
     * times its whole point with the status it returns; Filter, which runs per node, is not timed as
     * a point, as upstream.
     */
    private void observePoint(long startNanos, String point, Code code) {
        metrics.extensionPointDuration
                .with(point, SchedulerMetrics.status(code), profileName)
                .observeSince(startNanos);
    }

    // ---- PreEnqueue and QueueSort ---------------------------------------------------------------

    /** Success when every PreEnqueue plugin lets the pod in; the first refusal otherwise. */
    public Status runPreEnqueuePlugins(PodInfo pod) {
        for (Slot<PreEnqueuePlugin> s : preEnqueue) {
            Status st;
            try {
                st = s.plugin().preEnqueue(pod);
            } catch (RuntimeException e) {
                return Status.error("running PreEnqueue plugin \"" + s.name() + "\": " + e)
                        .withPlugin(s.name());
            }
            if (st != null && !st.isSuccess()) {
                return st.withPlugin(s.name());
            }
        }
        return Status.SUCCESS;
    }

    /** The QueueSort plugin's order; FIFO by queue time when it fails. */
    public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
        try {
            return queueSort.get(0).plugin().less(a, b);
        } catch (RuntimeException e) {
            return a.timestamp().isBefore(b.timestamp());
        }
    }

    public String queueSortName() {
        return queueSort.get(0).name();
    }

    // ---- PreFilter --------------------------------------------------------------------------------

    public PreFilterOutcome runPreFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        long t0 = System.nanoTime();
        PreFilterOutcome r = runPreFilterPlugins(state, pod, nodes);
        observePoint(t0, PluginTimeouts.PRE_FILTER, r.status().code());
        return r;
    }

    private PreFilterOutcome runPreFilterPlugins(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        for (Slot<PreFilterTransformer> t : preFilterTransformers) {
            final PodInfo current = pod;
            Outcome<Transformation> o = call(
                    state,
                    t.instance(),
                    PluginTimeouts.PRE_FILTER,
                    "running PreFilterTransformer \"" + t.name() + "\"",
                    () -> t.plugin().beforePreFilter(state, current));
            if (o.failure() != null) {
                return new PreFilterOutcome(pod, null, o.failure(), Set.of());
            }
            Transformation tr = o.value();
            if (tr != null && !tr.status().isSuccess()) {
                return new PreFilterOutcome(pod, null, tr.status().withPlugin(t.name()), Set.of());
            }
            if (tr != null && tr.pod() != null) {
                pod = tr.pod();
            }
        }
        PreFilterResult merged = PreFilterResult.ALL_NODES;
        Set<String> restricting = new TreeSet<>();
        Set<String> skipped = new HashSet<>();
        Status unschedulable = null;
        for (Slot<PreFilterPlugin> s : preFilter) {
            final PodInfo current = pod;
            Outcome<PreFilterResult> o = call(
                    state,
                    s.instance(),
                    PluginTimeouts.PRE_FILTER,
                    "running PreFilter plugin \"" + s.name() + "\"",
                    () -> s.plugin().preFilter(state, current, nodes));
            if (o.failure() != null) {
                return new PreFilterOutcome(pod, null, o.failure(), Set.of());
            }
            PreFilterResult r = o.value();
            Status st = r == null ? Status.SUCCESS : r.status();
            if (st.isSkip()) {
                skipped.add(s.name());
                continue;
            }
            if (!st.isSuccess()) {
                if (st.code() == Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
                    state.write(SkippedPlugins.FILTER, new SkippedPlugins(Set.copyOf(skipped)));
                    return new PreFilterOutcome(pod, null, st.withPlugin(s.name()), Set.of());
                }
                if (st.code() == Code.UNSCHEDULABLE || st.code() == Code.PENDING) {
                    if (unschedulable == null) {
                        unschedulable = st.withPlugin(s.name());
                    }
                    continue;
                }
                return new PreFilterOutcome(
                        pod,
                        null,
                        Status.error("running PreFilter plugin \"" + s.name() + "\": " + st.message())
                                .withPlugin(s.name()),
                        Set.of());
            }
            if (r != null && !r.allNodes()) {
                restricting.add(s.name());
                merged = merged.intersect(r);
                if (merged.nodeNames().isEmpty()) {
                    String msg = restricting.size() == 1
                            ? "node(s) didn't satisfy plugin "
                                    + restricting.iterator().next()
                            : "node(s) didn't satisfy plugin(s) " + goSlice(restricting) + " simultaneously";
                    state.write(SkippedPlugins.FILTER, new SkippedPlugins(Set.copyOf(skipped)));
                    return new PreFilterOutcome(pod, merged, Status.unresolvable(msg), Set.copyOf(restricting));
                }
            }
        }
        state.write(SkippedPlugins.FILTER, new SkippedPlugins(Set.copyOf(skipped)));
        if (unschedulable != null) {
            return new PreFilterOutcome(pod, merged, unschedulable, Set.copyOf(restricting));
        }
        for (Slot<PreFilterTransformer> t : preFilterTransformers) {
            Status st;
            try {
                st = t.plugin().afterPreFilter(state, pod, merged);
            } catch (RuntimeException e) {
                return new PreFilterOutcome(
                        pod,
                        merged,
                        fault(state, t.instance(), e, "running PreFilterTransformer \"" + t.name() + "\""),
                        Set.of());
            }
            if (st != null && !st.isSuccess()) {
                return new PreFilterOutcome(pod, merged, st.withPlugin(t.name()), Set.of());
            }
        }
        return new PreFilterOutcome(pod, merged, Status.SUCCESS, Set.copyOf(restricting));
    }

    static String goSlice(Set<String> names) {
        return "[" + String.join(" ", names) + "]";
    }

    public Status runPreFilterExtensionAddPod(
            CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
        return runPreFilterExtension(state, "AddPod", ext -> ext.addPod(state, podToSchedule, podToAdd, node));
    }

    public Status runPreFilterExtensionRemovePod(
            CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
        return runPreFilterExtension(state, "RemovePod", ext -> ext.removePod(state, podToSchedule, podToRemove, node));
    }

    /** Runs {@code op} on the extensions of every PreFilter plugin that did not skip; the first failure is an error. */
    private Status runPreFilterExtension(
            CycleState state, String op, java.util.function.Function<PreFilterExtensions, Status> call) {
        Set<String> skipped = skippedFilter(state);
        for (Slot<PreFilterPlugin> s : preFilter) {
            if (skipped.contains(s.name())) {
                continue;
            }
            try {
                PreFilterExtensions ext = s.plugin().preFilterExtensions();
                if (ext == null) {
                    continue;
                }
                Status st = call.apply(ext);
                if (st != null && !st.isSuccess()) {
                    return Status.error("running " + op + " on PreFilter plugin \"" + s.name() + "\": " + st.message())
                            .withPlugin(s.name());
                }
            } catch (RuntimeException e) {
                return fault(state, s.instance(), e, "running " + op + " on PreFilter plugin \"" + s.name() + "\"");
            }
        }
        return Status.SUCCESS;
    }

    private static Set<String> skippedFilter(CycleState state) {
        SkippedPlugins s = state.readOrNull(SkippedPlugins.FILTER);
        return s == null ? Set.of() : s.names();
    }

    // ---- Filter -----------------------------------------------------------------------------------

    /**
     * What Filter reads from the attempt, read once for all its nodes: which plugins PreFilter
     * skipped, the time-out, and (when the attempt is timed) each plugin's histogram. Per node these
     * cycle-state look-ups were a fifth of the scheduling loop's time.
     */
    public final class FilterRun {
        final boolean[] skip;
        final long limit;
        /** Null when the attempt's plugin calls are not timed. */
        final Histogram[] succeeded;

        FilterRun(CycleState state) {
            Set<String> skipped = skippedFilter(state);
            skip = new boolean[filter.size()];
            for (int i = 0; i < skip.length; i++) {
                skip[i] = skipped.contains(filter.get(i).name());
            }
            limit = limit(PluginTimeouts.FILTER);
            succeeded = succeededHistograms(Attempt.timesPlugins(state), filter, PluginTimeouts.FILTER);
        }
    }

    /** Filter's per-attempt reads of {@code state}; valid until PreFilter runs again on it. */
    public FilterRun filterRun(CycleState state) {
        return new FilterRun(state);
    }

    /** The Filter plugins in order; the first non-success wins. */
    Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node, FilterRun run, CallWatch.Slot watch) {
        long filterLimit = run.limit;
        // one clock read per call when timed: each call's end is the next one's start
        long timed = run.succeeded != null ? System.nanoTime() : 0;
        for (int i = 0; i < filter.size(); i++) {
            Slot<FilterPlugin> s = filter.get(i);
            if (run.skip[i]) {
                continue;
            }
            Status st;
            long t0 = now();
            if (watch != null) {
                watch.begin(state, s.instance(), PluginTimeouts.FILTER, t0, filterLimit);
            }
            try {
                st = s.plugin().filter(state, pod, node);
            } catch (RuntimeException e) {
                observePlugin(timed, s.name(), PluginTimeouts.FILTER, Code.ERROR);
                return fault(state, s.instance(), e, "running \"" + s.name() + "\" filter plugin");
            } finally {
                if (watch != null) {
                    watch.end();
                }
            }
            if (timed != 0) {
                long end = System.nanoTime();
                Code code = st == null ? Code.SUCCESS : st.code();
                Histogram h = code == Code.SUCCESS
                        ? run.succeeded[i]
                        : metrics.pluginExecutionDuration.with(
                                s.name(), PluginTimeouts.FILTER, SchedulerMetrics.status(code));
                h.observeNanos(end - timed);
                timed = end;
            }
            long took = now() - t0;
            if (took > filterLimit) {
                return overtime(
                        state, s.instance(), PluginTimeouts.FILTER, "running \"" + s.name() + "\" filter plugin", took);
            }
            if (st == null || st.isSuccess()) {
                continue;
            }
            if (st.isRejection()) {
                return st.withPlugin(s.name());
            }
            return Status.error("running \"" + s.name() + "\" filter plugin: " + st.message())
                    .withPlugin(s.name());
        }
        return Status.SUCCESS;
    }

    /**
     * Filter transformers, then the Filter plugins; when pods of at least the pod's priority are
     * nominated to the node, the plugins run twice (with those pods counted, then without) and the
     * node passes only if both pass.
     */
    public Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node) {
        return runFilterPluginsWithNominatedPods(state, pod, node, filterRun(state));
    }

    /** As {@link #runFilterPluginsWithNominatedPods(CycleState, PodInfo, NodeInfo)}, with the attempt's reads done once. */
    public Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node, FilterRun run) {
        CallWatch.Slot watch = watchSlot();
        long filterLimit = run.limit;
        for (int i = 0; i < filterTransformers.size(); i++) {
            Slot<FilterTransformer> t = filterTransformers.get(i);
            Transformation tr;
            long t0 = now();
            if (watch != null) {
                watch.begin(state, t.instance(), PluginTimeouts.FILTER, t0, filterLimit);
            }
            try {
                tr = t.plugin().beforeFilter(state, pod, node);
            } catch (RuntimeException e) {
                return fault(state, t.instance(), e, "running FilterTransformer \"" + t.name() + "\"");
            } finally {
                if (watch != null) {
                    watch.end();
                }
            }
            long took = now() - t0;
            if (took > filterLimit) {
                return overtime(
                        state,
                        t.instance(),
                        PluginTimeouts.FILTER,
                        "running FilterTransformer \"" + t.name() + "\"",
                        took);
            }
            if (tr == null || tr == Transformation.UNCHANGED) {
                continue;
            }
            if (!tr.status().isSuccess()) {
                return tr.status().withPlugin(t.name());
            }
            if (tr.pod() != null) {
                pod = tr.pod();
            }
            if (tr.node() != null) {
                node = tr.node();
            }
        }
        List<PodInfo> nominated = services.nominatedPods().apply(node.name());
        if (!nominated.isEmpty()) {
            NodeInfo withNominated = null;
            CycleState stateWithNominated = null;
            for (PodInfo n : nominated) {
                if (n.priority() >= pod.priority() && !n.uid().equals(pod.uid())) {
                    if (withNominated == null) {
                        withNominated = node.copy();
                        stateWithNominated = state.copy();
                    }
                    withNominated.addPod(n);
                    Status st = runPreFilterExtensionAddPod(stateWithNominated, pod, n, withNominated);
                    if (!st.isSuccess()) {
                        return st;
                    }
                }
            }
            if (withNominated != null) {
                Status first = runFilterPlugins(stateWithNominated, pod, withNominated, run, watch);
                if (!first.isSuccess()) {
                    return first;
                }
            }
        }
        return runFilterPlugins(state, pod, node, run, watch);
    }

    // ---- PostFilter --------------------------------------------------------------------------------

    public PostFilterResult runPostFilter(CycleState state, PodInfo pod, NodeToStatus statuses) {
        long t0 = System.nanoTime();
        PostFilterResult r = runPostFilterPlugins(state, pod, statuses);
        observePoint(t0, PluginTimeouts.POST_FILTER, r.status().code());
        return r;
    }

    private PostFilterResult runPostFilterPlugins(CycleState state, PodInfo pod, NodeToStatus statuses) {
        PostFilterResult result = PostFilterResult.of(Status.unschedulable());
        List<String> reasons = new ArrayList<>();
        String rejector = null;
        String nominating = null;
        for (Slot<PostFilterPlugin> s : postFilter) {
            Outcome<PostFilterResult> o = call(
                    state,
                    s.instance(),
                    PluginTimeouts.POST_FILTER,
                    "running PostFilter plugin \"" + s.name() + "\"",
                    () -> s.plugin().postFilter(state, pod, statuses));
            if (o.failure() != null) {
                result = PostFilterResult.of(o.failure());
                break;
            }
            PostFilterResult r = o.value();
            Status st = r == null ? Status.unschedulable() : r.status();
            if (st.isSuccess() || st.code() == Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
                result = new PostFilterResult(st.withPlugin(s.name()), r == null ? null : r.nominatedNodeName());
                break;
            }
            if (st.code() == Code.ERROR) {
                result = PostFilterResult.of(st.withPlugin(s.name()));
                break;
            }
            reasons.addAll(st.reasons());
            if (rejector == null) {
                rejector = s.name();
            }
            // a rejection may still carry a nomination ("" clears the pod's old one): the last one counts
            if (r != null && r.nominatedNodeName() != null) {
                nominating = r.nominatedNodeName();
            }
            result = new PostFilterResult(
                    Status.unschedulable(reasons.toArray(String[]::new)).withPlugin(rejector), nominating);
        }
        for (Slot<PostFilterTransformer> t : postFilterTransformers) {
            try {
                t.plugin().afterPostFilter(state, pod, statuses, result);
            } catch (RuntimeException e) {
                LOG.warn("PostFilterTransformer {} failed: {}", t.name(), e.toString());
            }
        }
        return result;
    }

    // ---- PreScore and Score -----------------------------------------------------------------------

    public Status runPreScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
        long t0 = System.nanoTime();
        Status r = runPreScorePlugins(state, pod, nodes);
        observePoint(t0, PluginTimeouts.PRE_SCORE, r.code());
        return r;
    }

    private Status runPreScorePlugins(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
        Set<String> skipped = new HashSet<>();
        for (Slot<PreScorePlugin> s : preScore) {
            Outcome<Status> o = call(
                    state,
                    s.instance(),
                    PluginTimeouts.PRE_SCORE,
                    "running PreScore plugin \"" + s.name() + "\"",
                    () -> s.plugin().preScore(state, pod, nodes));
            if (o.failure() != null) {
                return o.failure();
            }
            Status st = o.value();
            if (st == null || st.isSuccess()) {
                continue;
            }
            if (st.isSkip()) {
                skipped.add(s.name());
                continue;
            }
            return Status.error("running PreScore plugin \"" + s.name() + "\": " + st.message())
                    .withPlugin(s.name());
        }
        state.write(SkippedPlugins.SCORE, new SkippedPlugins(Set.copyOf(skipped)));
        return Status.SUCCESS;
    }

    /**
     * Score transformers, then every Score plugin over {@code nodes} in parallel, normalization,
     * range check and weights. Fills {@code out}: per node the weighted total and, per plugin, the
     * normalized score.
     */
    public Status runScore(CycleState state, PodInfo pod, List<NodeInfo> nodes, ScoreTable out) {
        long t0 = System.nanoTime();
        Status r = runScorePlugins(state, pod, nodes, out);
        observePoint(t0, PluginTimeouts.SCORE, r.code());
        return r;
    }

    private Status runScorePlugins(CycleState state, PodInfo pod, List<NodeInfo> nodes, ScoreTable out) {
        List<NodeInfo> scored = nodes;
        for (Slot<ScoreTransformer> t : scoreTransformers) {
            Transformation tr;
            try {
                tr = t.plugin().beforeScore(state, pod, scored);
            } catch (RuntimeException e) {
                return fault(state, t.instance(), e, "running ScoreTransformer \"" + t.name() + "\"");
            }
            if (tr == null || tr == Transformation.UNCHANGED) {
                continue;
            }
            if (!tr.status().isSuccess()) {
                return tr.status();
            }
            if (tr.pod() != null) {
                pod = tr.pod();
            }
            if (tr.nodes() != null) {
                if (tr.nodes().size() != scored.size()) {
                    return Status.error("ScoreTransformer \"" + t.name() + "\" returned "
                                    + tr.nodes().size() + " nodes for " + scored.size())
                            .withPlugin(t.name());
                }
                scored = tr.nodes();
            }
        }
        Set<String> skipped =
                state.read(SkippedPlugins.SCORE).map(SkippedPlugins::names).orElse(Set.of());
        List<Slot<ScorePlugin>> active = new ArrayList<>();
        for (Slot<ScorePlugin> s : score) {
            if (!skipped.contains(s.name())) {
                active.add(s);
            }
        }
        NodeScores[] perPlugin = new NodeScores[active.size()];
        for (int p = 0; p < perPlugin.length; p++) {
            perPlugin[p] = new NodeScores(scored);
        }
        final List<NodeInfo> scoredNodes = scored;
        final long scoreLimit = limit(PluginTimeouts.SCORE);
        final PodInfo scoredPod = pod;
        // the first failure ends the phase: later pieces are skipped, as upstream cancels
        AtomicReference<Status> failure = new AtomicReference<>();
        try {
            Attempt attempt = Attempt.of(state);
            Histogram[] timedScores =
                    succeededHistograms(attempt != null && attempt.timesPlugins, active, PluginTimeouts.SCORE);
            services.parallelizer().until(scoredNodes.size(), i -> {
                if (failure.get() != null || attempt != null && attempt.givenUp()) {
                    return;
                }
                NodeInfo n = scoredNodes.get(i);
                CallWatch.Slot watch = watchSlot();
                // one clock read per call when timed: each call's end is the next one's start
                long timed = timedScores != null ? System.nanoTime() : 0;
                for (int p = 0; p < perPlugin.length; p++) {
                    Slot<ScorePlugin> s = active.get(p);
                    long v;
                    long t0 = now();
                    if (watch != null) {
                        watch.begin(state, s.instance(), PluginTimeouts.SCORE, t0, scoreLimit);
                    }
                    try {
                        v = s.plugin().score(state, scoredPod, n);
                        if (timed != 0) {
                            long end = System.nanoTime();
                            timedScores[p].observeNanos(end - timed);
                            timed = end;
                        }
                    } catch (RuntimeException e) {
                        observePlugin(timed, s.name(), PluginTimeouts.SCORE, Code.ERROR);
                        if (failure.get() == null) {
                            failure.compareAndSet(
                                    null, fault(state, s.instance(), e, "running Score plugin \"" + s.name() + "\""));
                        }
                        return;
                    } finally {
                        if (watch != null) {
                            watch.end();
                        }
                    }
                    long took = now() - t0;
                    if (took > scoreLimit) {
                        if (failure.get() == null) {
                            failure.compareAndSet(
                                    null,
                                    overtime(
                                            state,
                                            s.instance(),
                                            PluginTimeouts.SCORE,
                                            "running Score plugin \"" + s.name() + "\"",
                                            took));
                        }
                        return;
                    }
                    perPlugin[p].set(i, v);
                }
            });
        } catch (RuntimeException e) {
            return Status.error(e);
        }
        if (failure.get() != null) {
            return failure.get();
        }
        for (int p = 0; p < perPlugin.length; p++) {
            Slot<ScorePlugin> s = active.get(p);
            try {
                ScoreExtensions ext = s.plugin().scoreExtensions();
                if (ext != null) {
                    Status st = ext.normalizeScore(state, scoredPod, perPlugin[p]);
                    if (st != null && !st.isSuccess()) {
                        return Status.error("running Normalize on Score plugin \"" + s.name() + "\": " + st.message())
                                .withPlugin(s.name());
                    }
                }
            } catch (RuntimeException e) {
                return fault(state, s.instance(), e, "running Normalize on Score plugin \"" + s.name() + "\"");
            }
            NodeScores ns = perPlugin[p];
            for (int i = 0; i < ns.size(); i++) {
                long v = ns.score(i);
                if (v < ScorePlugin.MIN_NODE_SCORE || v > ScorePlugin.MAX_NODE_SCORE) {
                    String msg = "applying score defaultWeights on Score plugins: plugin \"" + s.name()
                            + "\" returns an invalid score "
                            + v + ", it should in the range of [" + ScorePlugin.MIN_NODE_SCORE + ", "
                            + ScorePlugin.MAX_NODE_SCORE
                            + "] after normalizing";
                    AttemptFaults.of(state).record(s.instance(), msg);
                    return Status.error(msg).withPlugin(s.name());
                }
            }
        }
        out.fill(
                scoredNodes,
                active.stream().map(Slot::name).toList(),
                perPlugin,
                active.stream()
                        .mapToInt(s -> scoreWeights.getOrDefault(s.name(), 1))
                        .toArray());
        return Status.SUCCESS;
    }

    public boolean hasScorePlugins() {
        return !score.isEmpty();
    }

    // ---- Reserve, Permit ----------------------------------------------------------------------------

    public Status runReserve(CycleState state, PodInfo pod, String node) {
        long t0 = System.nanoTime();
        Status r = runReservePlugins(state, pod, node);
        observePoint(t0, PluginTimeouts.RESERVE, r.code());
        return r;
    }

    private Status runReservePlugins(CycleState state, PodInfo pod, String node) {
        for (Slot<ReservePlugin> s : reserve) {
            Outcome<Status> o = call(
                    state,
                    s.instance(),
                    PluginTimeouts.RESERVE,
                    "running Reserve plugin \"" + s.name() + "\"",
                    () -> s.plugin().reserve(state, pod, node));
            if (o.failure() != null) {
                return o.failure();
            }
            Status st = o.value();
            if (st != null && !st.isSuccess()) {
                if (st.isRejection()) {
                    return st.withPlugin(s.name());
                }
                return Status.error("running Reserve plugin \"" + s.name() + "\": " + st.message(), st.cause())
                        .withPlugin(s.name());
            }
        }
        return Status.SUCCESS;
    }

    /** Unreserve on every Reserve plugin, in reverse order; failures are logged, never thrown. */
    public void runUnreserve(CycleState state, PodInfo pod, String node) {
        long t0 = System.nanoTime();
        runUnreservePlugins(state, pod, node);
        observePoint(t0, "Unreserve", Code.SUCCESS);
    }

    private void runUnreservePlugins(CycleState state, PodInfo pod, String node) {
        for (int i = reserve.size() - 1; i >= 0; i--) {
            Slot<ReservePlugin> s = reserve.get(i);
            try {
                s.plugin().unreserve(state, pod, node);
            } catch (RuntimeException e) {
                fault(state, s.instance(), e, "running Unreserve plugin \"" + s.name() + "\"");
                LOG.warn("Unreserve of plugin {} failed for pod {}: {}", s.name(), pod.key(), e.toString());
            }
        }
    }

    /** Success, a rejection, or {@link Code#WAIT} (the pod now waits in {@link #waitingPods()}). */
    public Status runPermit(CycleState state, PodInfo pod, String node) {
        long t0 = System.nanoTime();
        Status r = runPermitPlugins(state, pod, node);
        observePoint(t0, PluginTimeouts.PERMIT, r.code());
        return r;
    }

    private Status runPermitPlugins(CycleState state, PodInfo pod, String node) {
        Map<String, Duration> waits = new LinkedHashMap<>();
        for (Slot<PermitPlugin> s : permit) {
            Outcome<PermitResult> o = call(
                    state,
                    s.instance(),
                    PluginTimeouts.PERMIT,
                    "running Permit plugin \"" + s.name() + "\"",
                    () -> s.plugin().permit(state, pod, node));
            if (o.failure() != null) {
                return o.failure();
            }
            PermitResult r = o.value();
            Status st = r == null ? Status.SUCCESS : r.status();
            if (st.isSuccess()) {
                continue;
            }
            if (st.isRejection()) {
                return Status.of(
                                st.code(),
                                "rejected pod \"" + pod.name() + "\" by permit plugin \"" + s.name() + "\": "
                                        + st.message())
                        .withPlugin(s.name());
            }
            if (st.code() == Code.WAIT) {
                Duration d = r.timeout() == null || r.timeout().isNegative() ? Duration.ZERO : r.timeout();
                waits.put(s.name(), d.compareTo(MAX_PERMIT_WAIT) > 0 ? MAX_PERMIT_WAIT : d);
                continue;
            }
            return Status.error("running Permit plugin \"" + s.name() + "\": " + st.message(), st.cause())
                    .withPlugin(s.name());
        }
        if (!waits.isEmpty()) {
            WaitingPodImpl w = new WaitingPodImpl(pod, node, waits, services.timer());
            waitingPods.add(w);
            // added before the check, drained after setting the reason: one of the two sees the other
            String drained = drainReason;
            if (drained != null) {
                w.reject(waits.keySet().iterator().next(), drained);
            }
            return Status.of(Code.WAIT);
        }
        return Status.SUCCESS;
    }

    /**
     * Completes when the pod waiting in Permit is allowed, rejected or timed out (at once when it
     * does not wait). The binding cycle starts then: a waiting pod holds no binding thread.
     */
    public CompletableFuture<Status> permitOutcome(PodInfo pod) {
        WaitingPodImpl w = (WaitingPodImpl) waitingPods.get(pod.uid());
        if (w == null) {
            return CompletableFuture.completedFuture(Status.SUCCESS);
        }
        return w.outcome().handle((st, e) -> {
            waitingPods.remove(pod.uid());
            return e == null
                    ? st
                    : Status.error(e instanceof CompletionException ce && ce.getCause() != null ? ce.getCause() : e);
        });
    }

    // ---- PreBind, Bind, PostBind --------------------------------------------------------------------

    public Status runPreBind(CycleState state, PodInfo pod, String node) {
        long t0 = System.nanoTime();
        Status r = runPreBindPlugins(state, pod, node);
        observePoint(t0, PluginTimeouts.PRE_BIND, r.code());
        return r;
    }

    private Status runPreBindPlugins(CycleState state, PodInfo pod, String node) {
        for (Slot<PreBindPlugin> s : preBind) {
            Outcome<Status> o = call(
                    state,
                    s.instance(),
                    PluginTimeouts.PRE_BIND,
                    "running PreBind plugin \"" + s.name() + "\"",
                    () -> s.plugin().preBind(state, pod, node));
            if (o.failure() != null) {
                return o.failure();
            }
            Status st = o.value();
            if (st != null && !st.isSuccess()) {
                if (st.isRejection()) {
                    return st.withPlugin(s.name());
                }
                return Status.error("running PreBind plugin \"" + s.name() + "\": " + st.message(), st.cause())
                        .withPlugin(s.name());
            }
        }
        return Status.SUCCESS;
    }

    public Status runBind(CycleState state, PodInfo pod, String node) {
        long t0 = System.nanoTime();
        Status r = runBindPlugins(state, pod, node);
        observePoint(t0, PluginTimeouts.BIND, r.code());
        return r;
    }

    private Status runBindPlugins(CycleState state, PodInfo pod, String node) {
        if (bind.isEmpty()) {
            return Status.SKIP;
        }
        for (Slot<BindPlugin> s : bind) {
            Outcome<Status> o = call(
                    state,
                    s.instance(),
                    PluginTimeouts.BIND,
                    "running Bind plugin \"" + s.name() + "\"",
                    () -> s.plugin().bind(state, pod, node));
            if (o.failure() != null) {
                return o.failure();
            }
            Status st = o.value();
            if (st != null && st.isSkip()) {
                continue;
            }
            if (st != null && !st.isSuccess()) {
                return Status.error("running Bind plugin \"" + s.name() + "\": " + st.message(), st.cause())
                        .withPlugin(s.name());
            }
            return Status.SUCCESS;
        }
        return Status.SKIP;
    }

    public void runPostBind(CycleState state, PodInfo pod, String node) {
        long t0 = System.nanoTime();
        runPostBindPlugins(state, pod, node);
        observePoint(t0, "PostBind", Code.SUCCESS);
    }

    private void runPostBindPlugins(CycleState state, PodInfo pod, String node) {
        for (Slot<PostBindPlugin> s : postBind) {
            try {
                s.plugin().postBind(state, pod, node);
            } catch (RuntimeException e) {
                fault(state, s.instance(), e, "running PostBind plugin \"" + s.name() + "\"");
            }
        }
    }

    /** Settles the plugin health counters of an attempt: faulty plugins fail once, the others succeed. */
    public Map<PluginInstance, String> faults(CycleState state) {
        return state.read(AttemptFaults.KEY).map(AttemptFaults::all).orElse(Map.of());
    }

    /** Completes when the pod waiting in Permit is released; for tests. */
    CompletableFuture<Status> permitOutcome(String uid) {
        WaitingPodImpl w = (WaitingPodImpl) waitingPods.get(uid);
        return w == null ? CompletableFuture.completedFuture(Status.SUCCESS) : w.outcome();
    }

    @Override
    public String toString() {
        return "framework of profile " + profileName;
    }
}
