package io.hotsched.core.runtime;

import io.hotsched.api.framework.WaitingPod;
import io.hotsched.api.framework.WaitingPods;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pods of one profile held in Permit, by UID, across the frameworks the profile is rebuilt
 * into: a plugin of the new framework (a gang, say) sees and can allow the pods still waiting on
 * the retired one, as upstream's single framework per profile would.
 */
public final class WaitingPodsImpl implements WaitingPods {

    private final Map<String, WaitingPodImpl> pods = new ConcurrentHashMap<>();

    public WaitingPodsImpl() {}

    void add(WaitingPodImpl p) {
        pods.put(p.pod().uid(), p);
    }

    /** Removes {@code p} if it is still the pod waiting under its UID (a later attempt's is kept). */
    void remove(WaitingPodImpl p) {
        pods.remove(p.pod().uid(), p);
    }

    @Override
    public WaitingPod get(String uid) {
        return pods.get(uid);
    }

    @Override
    public List<WaitingPod> list() {
        return List.copyOf(pods.values());
    }
}
