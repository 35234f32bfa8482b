package io.hotsched.plugins.defaults.helper;

import io.hotsched.api.framework.Resource;

/** Upstream's classification of resource names. */
public final class ResourceNames {

    private ResourceNames() {}

    /**
     * An extended resource: a domain-prefixed name outside {@code kubernetes.io/} and not a quota
     * {@code requests.} name. Hugepages and {@code kubernetes.io/*} are native, never extended.
     */
    public static boolean isExtended(String name) {
        return name.indexOf('/') >= 0 && !name.contains("kubernetes.io/") && !name.startsWith("requests.");
    }

    /** Anything besides cpu, memory, ephemeral-storage and pods: extended, hugepages, prefixed native. */
    public static boolean isScalar(String name) {
        return !name.equals(Resource.CPU)
                && !name.equals(Resource.MEMORY)
                && !name.equals(Resource.EPHEMERAL_STORAGE)
                && !name.equals(Resource.PODS);
    }
}
