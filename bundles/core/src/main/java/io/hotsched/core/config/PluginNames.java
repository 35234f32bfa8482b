package io.hotsched.core.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The plugin names a configuration may mean, for telling a misspelled name from a plugin whose bundle
 * has not arrived yet. hotsched cannot refuse an unknown name as kube-scheduler does: a profile may
 * name a plugin before its bundle is deployed, and it pauses until then. So a name is checked
 * against the names of installed bundles' plugins and the names upstream's schedulers use, and a
 * near miss is reported with the names it is near.
 */
public final class PluginNames {

    /**
     * The default profile's plugins ({@link DefaultPlugins#MULTI_POINT}), the rest of kube-scheduler's
     * in-tree ones (volumes, DRA, gang), Koordinator's and scheduler-plugins' best known ones, and
     * the transformers hotsched ships: a name close to one of these is most likely a typo of it.
     */
    public static final Set<String> WELL_KNOWN = wellKnown();

    private static final int MAX_DISTANCE = 2;

    private PluginNames() {}

    private static Set<String> wellKnown() {
        Set<String> names = new TreeSet<>(List.of(
                "VolumeRestrictions",
                "NodeVolumeLimits",
                "VolumeBinding",
                "VolumeZone",
                "DynamicResources",
                "GangScheduling",
                "LoadAwareScheduling",
                "DeviceShare",
                "NodeNUMAResource",
                "Reservation",
                "ElasticQuota",
                "Coscheduling",
                "CapacityScheduling",
                "NodeResourcesAllocatable",
                "TargetLoadPacking",
                "LoadVariationRiskBalancing",
                "NodeReservation",
                "ResourceAmplification"));
        DefaultPlugins.MULTI_POINT.forEach(p -> names.add(p.name()));
        return Set.copyOf(names);
    }

    /**
     * The known names {@code name} is near (two edits or fewer, or equal but for case), sorted;
     * empty when it is itself known or near none.
     */
    public static List<String> near(String name, Collection<String> installed) {
        Set<String> known = new TreeSet<>(WELL_KNOWN);
        known.addAll(installed);
        if (known.contains(name)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        String lower = name.toLowerCase(Locale.ROOT);
        for (String k : known) {
            if (k.toLowerCase(Locale.ROOT).equals(lower) || EditDistance.of(name, k, MAX_DISTANCE) <= MAX_DISTANCE) {
                out.add(k);
            }
        }
        return out;
    }
}
