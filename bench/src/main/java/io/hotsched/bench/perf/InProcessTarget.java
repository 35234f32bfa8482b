package io.hotsched.bench.perf;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.scheduler.Scheduler;
import io.hotsched.core.scheduler.SchedulerOptions;
import io.hotsched.core.scheduler.ShadowFigures;
import io.hotsched.plugins.defaults.balancedallocation.BalancedAllocation;
import io.hotsched.plugins.defaults.balancedallocation.BalancedAllocationFactory;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinder;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinderFactory;
import io.hotsched.plugins.defaults.defaultpreemption.DefaultPreemption;
import io.hotsched.plugins.defaults.defaultpreemption.DefaultPreemptionFactory;
import io.hotsched.plugins.defaults.imagelocality.ImageLocality;
import io.hotsched.plugins.defaults.imagelocality.ImageLocalityFactory;
import io.hotsched.plugins.defaults.interpodaffinity.InterPodAffinity;
import io.hotsched.plugins.defaults.interpodaffinity.InterPodAffinityFactory;
import io.hotsched.plugins.defaults.nodeaffinity.NodeAffinity;
import io.hotsched.plugins.defaults.nodeaffinity.NodeAffinityFactory;
import io.hotsched.plugins.defaults.nodename.NodeName;
import io.hotsched.plugins.defaults.nodename.NodeNameFactory;
import io.hotsched.plugins.defaults.nodeports.NodePorts;
import io.hotsched.plugins.defaults.nodeports.NodePortsFactory;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFit;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFitFactory;
import io.hotsched.plugins.defaults.nodeunschedulable.NodeUnschedulable;
import io.hotsched.plugins.defaults.nodeunschedulable.NodeUnschedulableFactory;
import io.hotsched.plugins.defaults.nodevolumelimits.NodeVolumeLimits;
import io.hotsched.plugins.defaults.nodevolumelimits.NodeVolumeLimitsFactory;
import io.hotsched.plugins.defaults.podtopologyspread.PodTopologySpread;
import io.hotsched.plugins.defaults.podtopologyspread.PodTopologySpreadFactory;
import io.hotsched.plugins.defaults.queuesort.PrioritySort;
import io.hotsched.plugins.defaults.queuesort.PrioritySortFactory;
import io.hotsched.plugins.defaults.schedulinggates.SchedulingGates;
import io.hotsched.plugins.defaults.schedulinggates.SchedulingGatesFactory;
import io.hotsched.plugins.defaults.tainttoleration.TaintToleration;
import io.hotsched.plugins.defaults.tainttoleration.TaintTolerationFactory;
import io.hotsched.plugins.defaults.volumebinding.VolumeBinding;
import io.hotsched.plugins.defaults.volumebinding.VolumeBindingFactory;
import io.hotsched.plugins.defaults.volumerestrictions.VolumeRestrictions;
import io.hotsched.plugins.defaults.volumerestrictions.VolumeRestrictionsFactory;
import io.hotsched.plugins.defaults.volumezone.VolumeZone;
import io.hotsched.plugins.defaults.volumezone.VolumeZoneFactory;
import io.hotsched.plugins.dynamicresources.DynamicResources;
import io.hotsched.plugins.dynamicresources.DynamicResourcesFactory;
import io.hotsched.testing.InMemoryCluster;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.osgi.framework.Version;

/**
 * The scheduler fed in-process: the core and the default plugins in this JVM, with an in-memory
 * cluster in place of the API server (no HTTP, no JSON). What it reaches is the scheduler's own
 * ceiling; set beside the API target's figures it shows the API path's cost.
 */
final class InProcessTarget implements Target {

    /** A default plugin run again in shadow, bounded to {@code cpuSharePercent} of the loop's CPU time. */
    record ShadowRun(String plugin, int cpuSharePercent) {}

    private final InMemoryCluster cluster = new InMemoryCluster();
    private final Scheduler scheduler;
    private final ShadowRun shadow;

    InProcessTarget(String extraConfig) throws Exception {
        this(extraConfig, null);
    }

    /** @param shadow the plugin run in shadow beside itself, or null */
    InProcessTarget(String extraConfig, ShadowRun shadow) throws Exception {
        this.shadow = shadow;
        PluginHealth health = new PluginHealth(5);
        scheduler = new Scheduler(SchedulerOptions.defaults(), new PluginRegistry(health), health, Clock.systemUTC());
        Map<String, PluginFactory> plugins = new LinkedHashMap<>();
        plugins.put(SchedulingGates.NAME, new SchedulingGatesFactory());
        plugins.put(PrioritySort.NAME, new PrioritySortFactory());
        plugins.put(NodeUnschedulable.NAME, new NodeUnschedulableFactory());
        plugins.put(NodeName.NAME, new NodeNameFactory());
        plugins.put(TaintToleration.NAME, new TaintTolerationFactory());
        plugins.put(NodeAffinity.NAME, new NodeAffinityFactory());
        plugins.put(NodePorts.NAME, new NodePortsFactory());
        plugins.put(NodeResourcesFit.NAME, new NodeResourcesFitFactory());
        plugins.put(VolumeRestrictions.NAME, new VolumeRestrictionsFactory());
        plugins.put(NodeVolumeLimits.NAME, new NodeVolumeLimitsFactory());
        plugins.put(VolumeBinding.NAME, new VolumeBindingFactory());
        plugins.put(VolumeZone.NAME, new VolumeZoneFactory());
        plugins.put(PodTopologySpread.NAME, new PodTopologySpreadFactory());
        plugins.put(InterPodAffinity.NAME, new InterPodAffinityFactory());
        plugins.put(DynamicResources.NAME, new DynamicResourcesFactory());
        plugins.put(DefaultPreemption.NAME, new DefaultPreemptionFactory());
        plugins.put(BalancedAllocation.NAME, new BalancedAllocationFactory());
        plugins.put(ImageLocality.NAME, new ImageLocalityFactory());
        plugins.put(DefaultBinder.NAME, new DefaultBinderFactory());
        long id = 1;
        for (Map.Entry<String, PluginFactory> e : plugins.entrySet()) {
            scheduler.pluginAdded(new Registration(
                    e.getKey(), e.getValue(), "io.hotsched.plugins.defaults", Version.emptyVersion, id++));
        }
        if (shadow != null) {
            PluginFactory f = plugins.get(shadow.plugin());
            if (f == null) {
                throw new IllegalArgumentException(
                        "--shadow " + shadow.plugin() + ": not a default plugin; one of " + plugins.keySet());
            }
            scheduler.shadows().setLimits(100, shadow.cpuSharePercent());
            scheduler.pluginAdded(
                    new Registration(
                            shadow.plugin(), f, "io.hotsched.plugins.defaults", Version.parseVersion("2.0.0"), id),
                    true);
        }
        scheduler.setBackend(cluster);
        scheduler.start(ConfigParser.parse(SchedulerProcess.DEFAULT_CONFIG + extraConfig, "scheduler.yaml"));
        cluster.connect(scheduler.events());
    }

    /** The shadow's figures so far, in one line. */
    String shadowFigures() {
        StringBuilder line = new StringBuilder("shadow:");
        for (ShadowFigures f : scheduler.shadows().figures()) {
            line.append(String.format(
                    " %s %s: %d compared, %d agree, %d faults, %d skipped over the CPU share, %d skipped with the"
                            + " queue full, shadow thread CPU %d ms;",
                    f.plugin(),
                    f.shadowVersion(),
                    f.compared(),
                    f.agreed(),
                    f.faults(),
                    f.skippedCpu(),
                    f.skippedQueue(),
                    f.shadowCpuNanos() / 1_000_000));
        }
        return line.toString();
    }

    /** The cluster the scheduler is fed from, for tests of the runner's operations. */
    InMemoryCluster cluster() {
        return cluster;
    }

    @Override
    public void namespace(String name) {
        // the in-memory cluster needs no namespace objects
    }

    @Override
    public void create(HasMetadata object) {
        if (object instanceof Node n) {
            cluster.addNode(n);
        } else if (object instanceof Pod p) {
            if (p.getSpec().getSchedulingGates() != null
                    && !p.getSpec().getSchedulingGates().isEmpty()) {
                // what kube-apiserver's pod strategy sets on a gated pod's creation
                p.setStatus(new PodStatusBuilder()
                        .addNewCondition()
                        .withType("PodScheduled")
                        .withStatus("False")
                        .withReason("SchedulingGated")
                        .withMessage("Scheduling is blocked due to non-empty scheduling gates")
                        .endCondition()
                        .build());
            }
            cluster.addPod(p);
        } else {
            cluster.putObject(object.getKind(), object);
        }
    }

    @Override
    public void delete(HasMetadata object) {
        if (object instanceof Node n) {
            cluster.removeNode(n.getMetadata().getName());
        } else if (object instanceof Pod p) {
            Pod stored =
                    cluster.pod(p.getMetadata().getNamespace(), p.getMetadata().getName());
            if (stored != null
                    && stored.getMetadata().getFinalizers() != null
                    && !stored.getMetadata().getFinalizers().isEmpty()) {
                // the API server keeps a pod with finalizers, marked for deletion, until they are gone;
                // a patch, as a bind or a status write may change the pod meanwhile
                cluster.patchPod(
                        stored,
                        q -> new PodBuilder(q)
                                .editMetadata()
                                .withDeletionTimestamp(Instant.now().toString())
                                .endMetadata()
                                .build());
            } else {
                cluster.removePod(
                        p.getMetadata().getNamespace(), p.getMetadata().getName());
            }
        }
    }

    @Override
    public int attempted(String namespace) {
        return (int) cluster.pods().stream()
                .filter(p -> namespace.equals(p.getMetadata().getNamespace()))
                .filter(InProcessTarget::hasPodScheduled)
                .count();
    }

    static boolean hasPodScheduled(Pod p) {
        return p.getStatus() != null
                && p.getStatus().getConditions() != null
                && p.getStatus().getConditions().stream().anyMatch(c -> "PodScheduled".equals(c.getType()));
    }

    @Override
    public int scheduled(String namespace) {
        return cluster.boundIn(namespace);
    }

    @Override
    public String metricsText() {
        StringBuilder b = new StringBuilder();
        scheduler.metrics().writeText(b);
        return b.toString();
    }

    @Override
    public double schedulerCpuSeconds() {
        return ProcessHandle.current()
                .info()
                .totalCpuDuration()
                .map(d -> d.toMillis() / 1000.0)
                .orElse(-1.0);
    }

    @Override
    public long liveHeapMiB() {
        System.gc();
        Runtime r = Runtime.getRuntime();
        return (r.totalMemory() - r.freeMemory()) / (1024 * 1024);
    }

    @Override
    public long peakRssMiB() {
        return -1;
    }

    @Override
    public void close() {
        scheduler.close();
        cluster.close();
    }
}
