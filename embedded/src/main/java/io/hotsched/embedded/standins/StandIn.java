package io.hotsched.embedded.standins;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The controllers and node agents the embedded API server plays, each of which can be turned off
 * ({@code --no-stand-in NAME,...} on the command line). Names are the lower-case, dashed constant
 * names: {@code kubelet}, {@code replicaset}, {@code persistent-volume} ...
 */
public enum StandIn {
    /** Marks bound pods Running and Ready. */
    KUBELET,
    /** Reports NodeMetrics again every 30 s. */
    KOORDLET,
    DEPLOYMENT,
    REPLICASET,
    JOB,
    STATEFULSET,
    DAEMONSET,
    /** Deletes objects whose controller owner was deleted. */
    GARBAGE_COLLECTOR,
    /** Binds PersistentVolumeClaims to PersistentVolumes. */
    PERSISTENT_VOLUME,
    /** Provisions volumes for claims of classes with a provisioner. */
    VOLUME_PROVISIONER,
    /** Creates ResourceClaims from the ResourceClaimTemplates pods name. */
    RESOURCE_CLAIM,
    /** Keeps PodDisruptionBudgets' status (disruptionsAllowed) in step with their pods. */
    DISRUPTION;

    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The stand-in named {@code name} ({@link #cliName()}); the message lists the known names. */
    public static StandIn named(String name) {
        for (StandIn s : values()) {
            if (s.cliName().equals(name.strip().toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new IllegalArgumentException(
                "unknown stand-in '" + name + "' (known: " + names(EnumSet.allOf(StandIn.class)) + ")");
    }

    public static String names(Set<StandIn> set) {
        return Arrays.stream(values())
                .filter(set::contains)
                .map(StandIn::cliName)
                .collect(Collectors.joining(", "));
    }
}
