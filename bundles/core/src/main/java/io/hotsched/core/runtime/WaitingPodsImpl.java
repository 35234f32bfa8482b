package io.hotsched.core.runtime;

import io.hotsched.api.framework.WaitingPod;
import io.hotsched.api.framework.WaitingPods;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The pods of one framework held in Permit, by UID. */
final class WaitingPodsImpl implements WaitingPods {

    private final Map<String, WaitingPodImpl> pods = new ConcurrentHashMap<>();

    void add(WaitingPodImpl p) {
        pods.put(p.pod().uid(), p);
    }

    void remove(String uid) {
        pods.remove(uid);
    }

    @Override
    public WaitingPod get(String uid) {
        return pods.get(uid);
    }

    @Override
    public List<WaitingPod> list() {
        return List.copyOf(pods.values());
    }

    /** Rejects every waiting pod whose pending plugins include one of {@code plugins}. */
    void rejectWaitingOn(Set<String> plugins, String message) {
        for (WaitingPodImpl p : pods.values()) {
            for (String name : p.pendingPlugins()) {
                if (plugins.contains(name)) {
                    p.reject(name, message);
                    break;
                }
            }
        }
    }

    /** Rejects every waiting pod. */
    void rejectAll(String message) {
        for (WaitingPodImpl p : pods.values()) {
            p.reject(p.pendingPlugins().stream().findFirst().orElse(""), message);
        }
    }
}
