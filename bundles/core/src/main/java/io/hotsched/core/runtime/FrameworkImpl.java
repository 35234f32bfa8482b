package io.hotsched.core.runtime;

import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.PreEnqueuePlugin;
import io.hotsched.api.framework.QueuedPodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.WaitingPods;
import io.hotsched.core.config.ExtensionPoint;
import io.hotsched.core.extender.Extenders;
import io.hotsched.core.metrics.SchedulerMetrics;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.FilterRunner.FilterRun;
import io.hotsched.core.runtime.GuardedCall.Outcome;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The plugins of one profile, as configured at one moment, and the runners of every extension
 * point (upstream's frameworkImpl). Immutable once built: a configuration change or a plugin
 * bundle coming or going builds a new one and retires this one. A scheduling attempt pins the
 * framework it started with until its binding cycle ends; a retired framework closes its plugin
 * instances when its last pin is released.
 *
 * <p>Every plugin call goes through the {@link GuardedCall} ({@link PluginCalls}): an exception or
 * a call past its time-out becomes an {@link Code#ERROR} status naming the plugin and is recorded
 * as a fault of that plugin. The points with more to them than a loop run in a class of their own:
 * {@link PreFilterRunner}, {@link FilterRunner}, {@link PostFilterRunner}, {@link ScoreRunner},
 * {@link PermitRunner}, {@link BindingRunner}. Each public {@code run<Point>} method times its whole point for
 * {@code scheduler_framework_extension_point_duration_seconds}; Filter, which runs per node, is not
 * timed as a point, as upstream.
 */
public final class FrameworkImpl {

    private final PluginSlots slots;
    private final PluginCalls calls;
    private final PreFilterRunner preFilter;
    private final FilterRunner filter;
    private final PostFilterRunner postFilter;
    private final ScoreRunner score;
    private final PermitRunner permit;
    private final BindingRunner binding;
    private final Pins pins;
    private final SchedulerMetrics metrics;
    private final List<Shadow> shadows;
    private final boolean shadowing;

    FrameworkImpl(PluginSlots slots, WaitingPodsImpl waitingPods, FrameworkServices services) {
        this(slots, waitingPods, services, List.of(), slots.instances);
    }

    /**
     * @param shadows the plugin versions in shadow that run beside this framework's
     * @param owned the instances this framework closes when its last pin is released: its own and
     *     its shadows' (a shadow's framework shares the others' instances and closes none)
     */
    FrameworkImpl(
            PluginSlots slots,
            WaitingPodsImpl waitingPods,
            FrameworkServices services,
            List<Shadow> shadows,
            List<PluginInstance> owned) {
        this.slots = slots;
        this.shadows = List.copyOf(shadows);
        this.shadowing = !shadows.isEmpty();
        this.calls = new PluginCalls(new GuardedCall(services));
        this.preFilter = new PreFilterRunner(slots, calls);
        this.filter = new FilterRunner(slots, calls, preFilter, services.nominatedPods());
        this.postFilter = new PostFilterRunner(slots, calls);
        this.score = new ScoreRunner(slots, calls, services.parallelizer());
        this.permit = new PermitRunner(slots, calls, waitingPods, services.timer());
        this.binding = new BindingRunner(slots, calls);
        this.pins = new Pins(owned);
        this.metrics = services.metrics();
    }

    /** The plugins at each point, as built (tests read them). */
    PluginSlots slots() {
        return slots;
    }

    /** The plugin versions in shadow beside this framework's (empty almost always). */
    public List<Shadow> shadows() {
        return shadows;
    }

    /** Whether any plugin version runs in shadow beside this framework's. */
    public boolean shadowing() {
        return shadowing;
    }

    /** The configuration's extenders, as this framework was built with them. */
    public Extenders extenders() {
        return slots.extenders;
    }

    public String profileName() {
        return slots.profileName;
    }

    /** The profile's percentageOfNodesToScore, or the global one (0 = adaptive). */
    public int percentageOfNodesToScore() {
        return slots.percentageOfNodesToScore;
    }

    public List<PluginInstance> instances() {
        return slots.instances;
    }

    /** Which extension points each plugin serves here, by configured name (for the shell). */
    public Map<String, List<String>> pointsByPlugin() {
        return slots.pointsByPlugin();
    }

    /** Whether this framework runs an instance from {@code registration}. */
    public boolean uses(Registration registration) {
        return slots.uses(registration);
    }

    /**
     * Whether this framework runs plugin {@code name} from exactly these registrations: the serving
     * one and the one in shadow (none when absent or the same as the serving one). When it does, a
     * registry change under that name (a standby version arriving or leaving) leaves it as it is.
     */
    public boolean builtFrom(String name, Optional<Registration> serving, Optional<Registration> shadow) {
        PluginInstance runs = null;
        for (PluginInstance i : slots.instances) {
            if (i.name().equals(name)) {
                runs = i;
                break;
            }
        }
        if (runs == null || serving.isEmpty() || !sameService(runs.registration(), serving.get())) {
            return false;
        }
        Optional<Registration> wanted =
                shadow.filter(r -> r.serviceId() != serving.get().serviceId());
        Registration inShadow = null;
        for (Shadow sh : shadows) {
            if (sh.plugin().equals(name)) {
                inShadow = sh.shadowRegistration();
            }
        }
        return wanted.isEmpty() ? inShadow == null : sameService(inShadow, wanted.get());
    }

    private static boolean sameService(Registration a, Registration b) {
        return a != null && a.serviceId() == b.serviceId();
    }

    /** By plugin name, the events that may make a pod it rejected schedulable; null: every event. */
    public Map<String, List<ClusterEventWithHint>> enqueueEvents() {
        return slots.enqueueEvents;
    }

    public WaitingPods waitingPods() {
        return permit.waitingPods();
    }

    /**
     * Rejects every pod waiting in Permit on this framework, and any pod that starts waiting on it
     * from now on (its plugins are leaving).
     */
    public void drain(String message) {
        permit.drain(message);
    }

    /** Takes a pin for one scheduling attempt; false when the framework is already closed. */
    public boolean pin() {
        return pins.pin();
    }

    public void unpin() {
        pins.unpin();
    }

    /** Number of attempts pinned to this framework right now. */
    public int activePins() {
        return pins.active();
    }

    /** Takes the framework out of service; it closes once no attempt holds it. */
    public void retire() {
        pins.retire();
    }

    public boolean retired() {
        return pins.retired();
    }

    public boolean closed() {
        return pins.closed();
    }

    /** An empty cycle state for the same attempt: its {@link Attempt} and the faults recorded so far carry over. */
    public static CycleState freshState(CycleState old) {
        CycleState fresh = new CycleState();
        old.read(Attempt.KEY).ifPresent(a -> fresh.write(Attempt.KEY, a));
        old.read(AttemptFaults.KEY).ifPresent(f -> fresh.write(AttemptFaults.KEY, f));
        return fresh;
    }

    /**
     * Marks, on the calling thread, that {@code state}'s attempt now waits for the extenders
     * {@code names}: past the extender wait the watchdog lets the loop move on. Null when calls
     * are not watched; give the result to {@link #endExtenderWait}.
     */
    CallWatch.Tracker beginExtenderWait(CycleState state, String names) {
        GuardedCall guard = calls.guard();
        CallWatch.Tracker t = guard.tracker();
        if (t != null) {
            t.beginExtenders(state, names, guard.now(), guard.extenderWait());
        }
        return t;
    }

    static void endExtenderWait(CallWatch.Tracker tracker) {
        GuardedCall.end(tracker);
    }

    /** The plugin faults recorded in {@code state}'s attempt so far, by instance. */
    public Map<PluginInstance, String> faults(CycleState state) {
        AttemptFaults f = state.readOrNull(AttemptFaults.KEY);
        return f == null ? Map.of() : f.all();
    }

    private <T> T timed(ExtensionPoint point, Supplier<T> run, Function<T, Code> code) {
        long t0 = System.nanoTime();
        T r = run.get();
        metrics.extensionPointDuration
                .with(point.label(), SchedulerMetrics.status(code.apply(r)), slots.profileName)
                .observeSince(t0);
        return r;
    }

    /** Success when every PreEnqueue plugin lets the pod in; the first refusal or failure otherwise. */
    public Status runPreEnqueuePlugins(PodInfo pod) {
        for (Slot<PreEnqueuePlugin> s : slots.preEnqueue) {
            Outcome<Status> o = calls.preEnqueue(s, pod);
            if (o.failed()) {
                return o.failure();
            }
            if (o.value() != null && !o.value().isSuccess()) {
                return o.value().withPlugin(s.name());
            }
        }
        return Status.SUCCESS;
    }

    /** The QueueSort plugin's order; FIFO by queue time when it fails. */
    public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
        Boolean less = calls.less(slots.queueSort.get(0), a, b);
        return less != null ? less : a.timestamp().isBefore(b.timestamp());
    }

    public String queueSortName() {
        return slots.queueSort.get(0).name();
    }

    public PreFilterOutcome runPreFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        return timed(
                ExtensionPoint.PRE_FILTER,
                () -> preFilter.run(state, pod, nodes),
                r -> r.status().code());
    }

    public Status runPreFilterExtensionAddPod(CycleState state, PodInfo pod, PodInfo podToAdd, NodeInfo node) {
        return preFilter.runExtension(state, pod, podToAdd, node, true);
    }

    public Status runPreFilterExtensionRemovePod(CycleState state, PodInfo pod, PodInfo podToRemove, NodeInfo node) {
        return preFilter.runExtension(state, pod, podToRemove, node, false);
    }

    /** Filter's per-attempt reads of {@code state}; valid until PreFilter runs again on it. */
    public FilterRun filterRun(CycleState state) {
        return filter.filterRun(state);
    }

    /** The FilterTransformers and Filter plugins for one node, nominated pods counted (see {@link FilterRunner}). */
    public Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node) {
        return filter.runWithNominatedPods(state, pod, node, filter.filterRun(state));
    }

    /** As {@link #runFilterPluginsWithNominatedPods(CycleState, PodInfo, NodeInfo)}, with the attempt's reads done once. */
    public Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node, FilterRun run) {
        return filter.runWithNominatedPods(state, pod, node, run);
    }

    public PostFilterResult runPostFilter(CycleState state, PodInfo pod, NodeToStatus statuses) {
        return timed(
                ExtensionPoint.POST_FILTER,
                () -> postFilter.run(state, pod, statuses),
                r -> r.status().code());
    }

    /** The PreScore plugins; a skip excludes the plugin's Score. */
    public Status runPreScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
        return timed(ExtensionPoint.PRE_SCORE, () -> score.preScore(state, pod, nodes), Status::code);
    }

    /** Score over {@code nodes} (see {@link ScoreRunner}); fills {@code out}. */
    public Status runScore(CycleState state, PodInfo pod, List<NodeInfo> nodes, ScoreTable out) {
        return timed(ExtensionPoint.SCORE, () -> score.run(state, pod, nodes, out), Status::code);
    }

    public boolean hasScorePlugins() {
        return !slots.score.isEmpty();
    }

    public Status runReserve(CycleState state, PodInfo pod, String node) {
        return timed(
                ExtensionPoint.RESERVE,
                () -> each(slots.reserve, s -> calls.reserve(state, s, pod, node), PluginCall.RESERVE),
                Status::code);
    }

    /** Unreserve on every Reserve plugin, in reverse order; failures are recorded, never thrown. */
    public void runUnreserve(CycleState state, PodInfo pod, String node) {
        timed(
                ExtensionPoint.UNRESERVE,
                () -> {
                    for (int i = slots.reserve.size() - 1; i >= 0; i--) {
                        calls.unreserve(state, slots.reserve.get(i), pod, node);
                    }
                    return Status.SUCCESS;
                },
                Status::code);
    }

    /** Success, a rejection, or {@link Code#WAIT} (the pod now waits in {@link #waitingPods()}). */
    public Status runPermit(CycleState state, PodInfo pod, String node) {
        return timed(ExtensionPoint.PERMIT, () -> permit.run(state, pod, node), Status::code);
    }

    /**
     * Completes when the pod waiting in Permit is allowed, rejected or timed out (at once when it
     * does not wait). The binding cycle starts then: a waiting pod holds no binding thread.
     */
    public CompletableFuture<Status> permitOutcome(PodInfo pod) {
        return permit.outcome(pod);
    }

    public Status runPreBind(CycleState state, PodInfo pod, String node) {
        return runPreBind(state, pod, node, 0).status();
    }

    /**
     * Where PreBind stands: done ({@link #waitingAt} -1, with the status of the first plugin that
     * did not succeed, or success), or waiting for the plugin at {@link #waitingAt}, which returned
     * {@link Code#WAIT} and is to be asked again.
     */
    public record PreBindOutcome(Status status, int waitingAt) {
        public boolean waiting() {
            return waitingAt >= 0;
        }
    }

    /** The PreBind plugins from the one at {@code from} on (the earlier ones are done). */
    public PreBindOutcome runPreBind(CycleState state, PodInfo pod, String node, int from) {
        return timed(
                ExtensionPoint.PRE_BIND,
                () -> binding.preBind(state, pod, node, from),
                o -> o.status().code());
    }

    /** The Bind plugins until one does not skip; {@link Status#SKIP} when all skip. */
    public Status runBind(CycleState state, PodInfo pod, String node) {
        return timed(ExtensionPoint.BIND, () -> binding.bind(state, pod, node), Status::code);
    }

    /** PostBind on every plugin; failures are recorded, never thrown. */
    public void runPostBind(CycleState state, PodInfo pod, String node) {
        timed(ExtensionPoint.POST_BIND, () -> binding.postBind(state, pod, node), Status::code);
    }

    /** The plugins of {@code slots} in order; the first non-success, {@link GuardedCall#interpret interpreted}, ends it. */
    private static <P> Status each(List<Slot<P>> slots, Function<Slot<P>, Outcome<Status>> call, PluginCall what) {
        for (Slot<P> s : slots) {
            Outcome<Status> o = call.apply(s);
            Status st = o.failed() ? o.failure() : GuardedCall.interpret(what, s.name(), o.value());
            if (!st.isSuccess()) {
                return st;
            }
        }
        return Status.SUCCESS;
    }

    /** Completes when the pod waiting in Permit is released; for tests. */
    CompletableFuture<Status> permitOutcome(String uid) {
        WaitingPodImpl w = (WaitingPodImpl) permit.waitingPods().get(uid);
        return w == null ? CompletableFuture.completedFuture(Status.SUCCESS) : w.outcome();
    }

    @Override
    public String toString() {
        return "framework of profile " + slots.profileName;
    }
}
