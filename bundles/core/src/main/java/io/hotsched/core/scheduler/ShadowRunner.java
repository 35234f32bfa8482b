package io.hotsched.core.scheduler;

import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.core.metrics.SchedulerMetrics;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.CallWatch;
import io.hotsched.core.runtime.FrameworkImpl;
import io.hotsched.core.runtime.ScheduleResult;
import io.hotsched.core.runtime.Shadow;
import io.hotsched.core.runtime.ShadowResult;
import io.hotsched.core.runtime.Snapshot;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the shadows of a framework for the pods the loop decided, on a thread of its own (replaced
 * when a plugin call of its runs past its time-out, see {@link #giveUp}): the loop
 * hands a pod over (a copy of the snapshot's node references, which later attempts replace rather
 * than change) and goes on. Bounded: a sample of pods ({@code samplePercent}), a queue of
 * {@link #QUEUE} pods, and a share of CPU time: when the shadow thread took more than
 * {@code cpuSharePercent} of the CPU time the scheduling loop and its Filter/Score workers took over
 * the last second, pods are skipped (and counted) until it is below again. An observe-only
 * profile's decisions ({@link #runObserving}) share the thread, the sample rate and the queue; their
 * CPU share is of one core.
 */
final class ShadowRunner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ShadowRunner.class);
    static final int QUEUE = 64;
    /** CPU samples kept: one per {@link #tick()}, every 100 ms, so a window of a second. */
    private static final int SAMPLES = 10;

    private final BlockingQueue<ShadowThread.Job> jobs = new ArrayBlockingQueue<>(QUEUE);
    private final CallWatch watch;
    /** Guards the three fields below. */
    private final Object threadLock = new Object();
    /** The thread taking the jobs, started with the first; replaced when stuck in a plugin call. */
    private ShadowThread thread;

    private int threadsStarted;
    private boolean closed;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final boolean cpuTimed = threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeSupported();
    private final LongSupplier servingCpu;
    private final PluginHealth health;
    private final PluginRegistry registry;
    private final Executor housekeeping;
    private final Map<String, ShadowFigures> figures = new ConcurrentHashMap<>();
    private final AtomicLong shadowCpu = new AtomicLong();
    /** Pods handed to the shadow thread and not compared yet; guarded by itself, which is notified at 0. */
    private final int[] pending = {0};

    private final long[][] samples = new long[SAMPLES][];
    private int nextSample;
    private volatile int samplePercent = 100;
    private volatile int cpuSharePercent = 25;
    private volatile boolean over;
    /** CPU time of observe-only decisions, and whether it is over its share of one core. */
    private final AtomicLong observingCpu = new AtomicLong();

    private volatile boolean observingOver;
    /**
     * @param servingCpu the CPU time, in nanos, the scheduling loop and its workers have taken so far
     * @param watch where the shadow thread's plugin calls are marked for the watchdog; null: not watched
     */
    ShadowRunner(
            LongSupplier servingCpu,
            CallWatch watch,
            PluginHealth health,
            PluginRegistry registry,
            Executor housekeeping) {
        this.servingCpu = servingCpu;
        this.watch = watch;
        this.health = health;
        this.registry = registry;
        this.housekeeping = housekeeping;
        if (!cpuTimed) {
            LOG.warn("This JVM measures no thread CPU time: the CPU share of plugin versions in shadow is not bounded");
        }
    }

    void setSamplePercent(int percent) {
        this.samplePercent = percent;
    }

    void setCpuSharePercent(int percent) {
        this.cpuSharePercent = percent;
    }

    int samplePercent() {
        return samplePercent;
    }

    int cpuSharePercent() {
        return cpuSharePercent;
    }

    /**
     * On the loop: {@code fw} decided {@code result} for {@code pod} on {@code snapshot} in
     * {@code servingNanos}; its shadows run on the shadow thread, or the pod is skipped.
     */
    void offer(FrameworkImpl fw, PodInfo pod, ScheduleResult result, Snapshot snapshot, long servingNanos) {
        int sample = samplePercent;
        if (sample < 100 && ThreadLocalRandom.current().nextInt(100) >= sample) {
            return;
        }
        if (over) {
            fw.shadows().forEach(s -> figures(s).skippedCpu.increment());
            return;
        }
        if (!fw.pin()) {
            return;
        }
        NodeInfo[] nodes = snapshot.list().toArray(new NodeInfo[0]);
        synchronized (pending) {
            pending[0]++;
        }
        if (!submit(on -> run(on, fw, pod, result, nodes, servingNanos))) {
            compared();
            fw.unpin();
            fw.shadows().forEach(s -> figures(s).skippedQueue.increment());
        }
    }

    /** Whether an observe-only decision was taken on the shadow thread, or why not. */
    enum Admission {
        ACCEPTED,
        /** Left out by {@code shadowSamplePercent}: not counted. */
        SAMPLED_OUT,
        OVER_CPU,
        QUEUE_FULL
    }

    /**
     * An observe-only profile's decision, run on the shadow thread within the shadows' bounds: the
     * same sample rate and queue, and {@code cpuSharePercent} of one core.
     */
    Admission runObserving(Runnable decision) {
        int sample = samplePercent;
        if (sample < 100 && ThreadLocalRandom.current().nextInt(100) >= sample) {
            return Admission.SAMPLED_OUT;
        }
        if (observingOver) {
            return Admission.OVER_CPU;
        }
        synchronized (pending) {
            pending[0]++;
        }
        boolean queued = submit(on -> {
            long c0 = cpuNow();
            try {
                decision.run();
            } finally {
                observingCpu.addAndGet(cpuNow() - c0);
                compared();
            }
        });
        if (queued) {
            return Admission.ACCEPTED;
        }
        compared();
        return Admission.QUEUE_FULL;
    }

    /** Queues {@code job} for the shadow thread, started with the first; false when the queue is full or closed. */
    private boolean submit(ShadowThread.Job job) {
        synchronized (threadLock) {
            if (closed) {
                return false;
            }
            if (thread == null) {
                thread = newThread();
            }
        }
        return jobs.offer(job);
    }

    private ShadowThread newThread() {
        String name = threadsStarted++ == 0 ? "hotsched-shadow" : "hotsched-shadow-" + threadsStarted;
        return new ShadowThread(jobs, watch, name).start();
    }

    /**
     * The watchdog saw a plugin call past its time-out: if the shadow thread makes it, a new thread
     * takes the queue, and the stuck one ends when its call returns (the call is a fault of the
     * version in shadow then, as any late call). True when the call was the shadow thread's.
     */
    boolean giveUp(CallWatch.Overdue o, long now) {
        ShadowThread next;
        synchronized (threadLock) {
            ShadowThread stuck = thread;
            if (closed || stuck == null || o.tracker().thread() != stuck.thread()) {
                return false;
            }
            stuck.replace();
            next = newThread();
            thread = next;
        }
        LOG.warn(
                "Plugin {} on the shadow thread: {}; the shadows go on on thread {}, the call finishes on its own",
                o.instance(),
                o.stillRunning(now),
                next.thread().getName());
        return true;
    }

    /** The CPU time the calling thread has taken, in nanos; 0 when not measured. */
    long threadCpu() {
        return cpuNow();
    }

    private void run(
            ShadowThread on,
            FrameworkImpl fw,
            PodInfo pod,
            ScheduleResult result,
            NodeInfo[] nodes,
            long servingNanos) {
        try {
            Snapshot frozen = on.freeze(nodes);
            for (Shadow s : fw.shadows()) {
                long c0 = cpuNow();
                long t0 = System.nanoTime();
                try {
                    ShadowResult r = s.compare(pod, result, result.suggestedHost(), frozen);
                    long cpu = cpuNow() - c0;
                    shadowCpu.addAndGet(cpu);
                    figures(s).record(r, servingNanos, System.nanoTime() - t0, cpu);
                    settle(s, r);
                } catch (RuntimeException e) {
                    // the core's part of the run failed, not a plugin call (those are faults in the result)
                    LOG.warn(
                            "Running the shadow {} for pod {} failed",
                            s.shadowRegistration().describe(),
                            pod.key(),
                            e);
                    figures(s).failed(pod.key() + ": " + e);
                }
            }
        } finally {
            fw.unpin();
            compared();
        }
    }

    private void compared() {
        synchronized (pending) {
            if (--pending[0] == 0) {
                pending.notifyAll();
            }
        }
    }

    /** The shadow's own fault counts against it as a serving plugin's does: in a row, it is quarantined. */
    private void settle(Shadow s, ShadowResult r) {
        Registration reg = s.shadowRegistration();
        if (!r.shadowFault()) {
            if (r.fault() == null) {
                health.succeeded(reg);
            }
            return;
        }
        if (health.failed(reg, r.fault())) {
            LOG.error(
                    "Plugin {} in shadow quarantined after {} failed pods in a row; last: {}. It no longer runs in shadow.",
                    reg.describe(),
                    health.threshold(),
                    r.fault());
            housekeeping.execute(() -> registry.changed(reg.name()));
        }
    }

    private long cpuNow() {
        return cpuTimed ? threads.getCurrentThreadCpuTime() : 0;
    }

    /**
     * Every 100 ms: whether the shadows took more than their share of CPU over the last second,
     * and whether observe-only decisions took more than that share of one core (beside another
     * scheduler the loop here is idle, so its CPU time is no measure).
     */
    void tick() {
        if (!cpuTimed) {
            return;
        }
        long[] now = {servingCpu.getAsLong(), shadowCpu.get(), observingCpu.get(), System.nanoTime()};
        long[] oldest = samples[nextSample];
        samples[nextSample] = now;
        nextSample = (nextSample + 1) % SAMPLES;
        if (oldest == null) {
            return;
        }
        long serving = now[0] - oldest[0];
        long shadow = now[1] - oldest[1];
        over = shadow * 100 > (long) cpuSharePercent * Math.max(serving, 1);
        long observing = now[2] - oldest[2];
        long wall = now[3] - oldest[3];
        observingOver = observing * 100 > (long) cpuSharePercent * Math.max(wall, 1);
    }

    /** The CPU time, in nanos, {@code t} has taken; 0 when not measured. */
    long cpuOf(Thread t) {
        if (!cpuTimed || t == null) {
            return 0;
        }
        long n = threads.getThreadCpuTime(t.getId());
        return Math.max(n, 0);
    }

    ShadowFigures figures(Shadow s) {
        return figures(
                s.plugin(),
                s.servingRegistration().version().toString(),
                s.shadowRegistration().version().toString());
    }

    ShadowFigures figures(String plugin, String servingVersion, String shadowVersion) {
        return figures.computeIfAbsent(
                plugin + '\u0000' + servingVersion + '\u0000' + shadowVersion,
                k -> new ShadowFigures(plugin, servingVersion, shadowVersion, false));
    }

    /** The figures of observe-only profile {@code profile} beside scheduler {@code observed}, made when new. */
    ShadowFigures observingFigures(String profile, String observed) {
        String plugin = "observe:" + profile;
        return figures.computeIfAbsent(
                plugin + '\u0000' + observed + '\u0000' + profile,
                k -> new ShadowFigures(plugin, observed, profile, true));
    }

    /** Every pair of versions compared since start, by plugin. */
    List<ShadowFigures> all() {
        List<ShadowFigures> out = new ArrayList<>(figures.values());
        out.sort((a, b) -> (a.plugin() + a.servingVersion() + a.shadowVersion())
                .compareTo(b.plugin() + b.servingVersion() + b.shadowVersion()));
        return out;
    }

    /** Forgets the figures of {@code plugin} (its shadow was stopped or promoted). */
    void forget(String plugin) {
        figures.values().removeIf(f -> f.plugin().equals(plugin));
    }

    /** Waits until every pod handed over so far was compared (tests). */
    boolean awaitIdle(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        synchronized (pending) {
            while (pending[0] > 0) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return false;
                }
                pending.wait(left);
            }
        }
        return true;
    }

    /** The shadows' series, in the text format. */
    void writeText(StringBuilder out) {
        List<ShadowFigures> all = all();
        out.append("# HELP hotsched_shadow_pods_total Pods a plugin version in shadow was run for, by result.\n")
                .append("# TYPE hotsched_shadow_pods_total counter\n");
        for (ShadowFigures f : all) {
            pods(out, f, "agree", f.agreed());
            pods(out, f, "disagree", f.disagreed());
            pods(out, f, "fault", f.faults());
            pods(out, f, "skipped_cpu", f.skippedCpu());
            pods(out, f, "skipped_queue", f.skippedQueue());
            if (f.observing()) {
                pods(out, f, "skipped_pending", f.skippedPending());
            }
        }
        out.append(
                        "# HELP hotsched_shadow_agreement_ratio Share of the pods compared on which the shadow chose the serving node.\n")
                .append("# TYPE hotsched_shadow_agreement_ratio gauge\n");
        for (ShadowFigures f : all) {
            out.append("hotsched_shadow_agreement_ratio{")
                    .append(labels(f))
                    .append("} ")
                    .append(f.agreement())
                    .append('\n');
        }
        out.append(
                        "# HELP hotsched_shadow_decision_seconds Time to decide a pod compared, by the version that decided.\n")
                .append("# TYPE hotsched_shadow_decision_seconds summary\n");
        for (ShadowFigures f : all) {
            if (!f.observing()) {
                // an observed scheduler's decision time is not known here
                decision(out, f, "serving", f.servingVersion(), f.servingNanos.sum(), f.compared());
            }
            decision(out, f, "shadow", f.shadowVersion(), f.shadowNanos.sum(), f.compared());
        }
        out.append(
                        "# HELP hotsched_shadow_cpu_seconds_total CPU time the shadow thread took for a plugin version in shadow.\n")
                .append("# TYPE hotsched_shadow_cpu_seconds_total counter\n");
        for (ShadowFigures f : all) {
            out.append("hotsched_shadow_cpu_seconds_total{")
                    .append(labels(f))
                    .append("} ")
                    .append(f.shadowCpuNanos() / 1e9)
                    .append('\n');
        }
    }

    private static String labels(ShadowFigures f) {
        return "plugin=\"" + SchedulerMetrics.escape(f.plugin()) + "\",serving_version=\""
                + SchedulerMetrics.escape(f.servingVersion()) + "\",shadow_version=\""
                + SchedulerMetrics.escape(f.shadowVersion()) + "\"";
    }

    private static void pods(StringBuilder out, ShadowFigures f, String result, long n) {
        out.append("hotsched_shadow_pods_total{")
                .append(labels(f))
                .append(",result=\"")
                .append(result)
                .append("\"} ")
                .append(n)
                .append('\n');
    }

    private static void decision(StringBuilder out, ShadowFigures f, String role, String version, long nanos, long n) {
        String l = labels(f) + ",role=\"" + role + "\",version=\"" + SchedulerMetrics.escape(version) + "\"";
        out.append("hotsched_shadow_decision_seconds_sum{")
                .append(l)
                .append("} ")
                .append(nanos / 1e9)
                .append('\n');
        out.append("hotsched_shadow_decision_seconds_count{")
                .append(l)
                .append("} ")
                .append(n)
                .append('\n');
    }

    @Override
    public void close() {
        synchronized (threadLock) {
            closed = true;
            if (thread != null) {
                thread.stop();
            }
        }
    }
}
