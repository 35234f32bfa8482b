package io.hotsched.plugins.defaults.noderesourcesfit;

import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.Resource;
import io.hotsched.plugins.defaults.helper.ResourceNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Which of a node's resources are too few for a pod's request, in upstream's order. */
final class Fits {

    static final String TOO_MANY_PODS = "Too many pods";

    private final Set<String> ignoredResources;
    private final Set<String> ignoredGroups;

    Fits(Set<String> ignoredResources, Set<String> ignoredGroups) {
        this.ignoredResources = ignoredResources;
        this.ignoredGroups = ignoredGroups;
    }

    /** Empty when the pod fits; nothing is allocated then. */
    List<InsufficientResource> check(Resource request, NodeInfo node) {
        List<InsufficientResource> out = null;
        Resource alloc = node.allocatable();
        Resource used = node.requested();
        int pods = node.pods().size();
        if (pods + 1 > alloc.allowedPods()) {
            out = add(out, new InsufficientResource(Resource.PODS, TOO_MANY_PODS, 1, pods, alloc.allowedPods(), false));
        }
        if (request.milliCpu() == 0
                && request.memory() == 0
                && request.ephemeralStorage() == 0
                && request.scalars().isEmpty()) {
            return out == null ? List.of() : out;
        }
        out = checkOne(out, Resource.CPU, request.milliCpu(), used.milliCpu(), alloc.milliCpu());
        out = checkOne(out, Resource.MEMORY, request.memory(), used.memory(), alloc.memory());
        out = checkOne(
                out,
                Resource.EPHEMERAL_STORAGE,
                request.ephemeralStorage(),
                used.ephemeralStorage(),
                alloc.ephemeralStorage());
        for (Map.Entry<String, Long> e : request.scalars().entrySet()) {
            String name = e.getKey();
            if (e.getValue() == 0 || ResourceNames.isExtended(name) && ignored(name)) {
                continue;
            }
            out = checkOne(out, name, e.getValue(), used.get(name), alloc.get(name));
        }
        return out == null ? List.of() : out;
    }

    private boolean ignored(String name) {
        if (ignoredResources.contains(name)) {
            return true;
        }
        int slash = name.indexOf('/');
        return slash >= 0 && ignoredGroups.contains(name.substring(0, slash));
    }

    private static List<InsufficientResource> checkOne(
            List<InsufficientResource> out, String name, long request, long used, long alloc) {
        if (request > 0 && request > alloc - used) {
            return add(
                    out, new InsufficientResource(name, "Insufficient " + name, request, used, alloc, request > alloc));
        }
        return out;
    }

    private static List<InsufficientResource> add(List<InsufficientResource> out, InsufficientResource r) {
        List<InsufficientResource> l = out == null ? new ArrayList<>(2) : out;
        l.add(r);
        return l;
    }
}
