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
            if (k.toLowerCase(Locale.ROOT).equals(lower) || distance(name, k, MAX_DISTANCE) <= MAX_DISTANCE) {
                out.add(k);
            }
        }
        return out;
    }

    /** Levenshtein distance of a and b, or {@code limit + 1} once it is known to exceed limit. */
    static int distance(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) > limit) {
            return limit + 1;
        }
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            int rowMin = cur[0];
            for (int j = 1; j <= b.length(); j++) {
                int substitution = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(substitution, Math.min(prev[j], cur[j - 1]) + 1);
                rowMin = Math.min(rowMin, cur[j]);
            }
            if (rowMin > limit) {
                return limit + 1;
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
