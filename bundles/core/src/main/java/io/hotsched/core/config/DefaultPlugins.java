package io.hotsched.core.config;

import java.util.List;

/**
 * The plugins a profile gets when its configuration has no {@code plugins} section: upstream's v1
 * default MultiPoint list and weights, in upstream's order (v1.36: DynamicResources before
 * DefaultPreemption, so PostFilter frees an idle claim before it evicts a pod). Each plugin comes
 * from a bundle (DynamicResources from one of its own); the profile waits until all are there.
 */
public final class DefaultPlugins {

    public static final List<PluginRef> MULTI_POINT = List.of(
            PluginRef.of("SchedulingGates"),
            PluginRef.of("PrioritySort"),
            PluginRef.of("NodeUnschedulable"),
            PluginRef.of("NodeName"),
            PluginRef.of("TaintToleration", 3),
            PluginRef.of("NodeAffinity", 2),
            PluginRef.of("NodePorts"),
            PluginRef.of("NodeResourcesFit", 1),
            PluginRef.of("VolumeRestrictions"),
            PluginRef.of("NodeVolumeLimits"),
            PluginRef.of("VolumeBinding"),
            PluginRef.of("VolumeZone"),
            PluginRef.of("PodTopologySpread", 2),
            PluginRef.of("InterPodAffinity", 2),
            PluginRef.of("DynamicResources"),
            PluginRef.of("DefaultPreemption"),
            PluginRef.of("NodeResourcesBalancedAllocation", 1),
            PluginRef.of("ImageLocality", 1),
            PluginRef.of("DefaultBinder"));

    private DefaultPlugins() {}
}
