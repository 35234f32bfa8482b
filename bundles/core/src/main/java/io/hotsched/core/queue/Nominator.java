package io.hotsched.core.queue;

import io.hotsched.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Pods nominated to nodes by preemption, not yet bound. Thread-safe. */
public final class Nominator {

    private final Map<String, String> nodeByUid = new ConcurrentHashMap<>();
    private final Map<String, List<PodInfo>> podsByNode = new ConcurrentHashMap<>();

    public synchronized void nominate(PodInfo pod, String node) {
        delete(pod.uid());
        if (node == null || node.isEmpty()) {
            return;
        }
        nodeByUid.put(pod.uid(), node);
        podsByNode.computeIfAbsent(node, k -> new ArrayList<>()).add(pod);
    }

    public synchronized void delete(String uid) {
        String node = nodeByUid.remove(uid);
        if (node == null) {
            return;
        }
        List<PodInfo> l = podsByNode.get(node);
        if (l != null) {
            l.removeIf(p -> p.uid().equals(uid));
            if (l.isEmpty()) {
                podsByNode.remove(node);
            }
        }
    }

    public List<PodInfo> forNode(String node) {
        if (podsByNode.isEmpty()) {
            return List.of();
        }
        synchronized (this) {
            List<PodInfo> l = podsByNode.get(node);
            return l == null ? List.of() : List.copyOf(l);
        }
    }
}
