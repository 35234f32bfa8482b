package io.hotsched.core.runtime;

import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.Status;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Why an attempt found no node: each node's status, the status of nodes not filtered, the
 * plugins that rejected the pod, and the PreFilter and PostFilter messages.
 */
public final class Diagnosis {

    private final Map<String, Status> nodeStatuses;
    private final Status absent;
    private final String preFilterMsg;
    private volatile String postFilterMsg = "";

    Diagnosis(Map<String, Status> nodeStatuses, Status absent, String preFilterMsg) {
        this.nodeStatuses = Map.copyOf(nodeStatuses);
        this.absent = absent;
        this.preFilterMsg = preFilterMsg == null ? "" : preFilterMsg;
    }

    public NodeToStatus toNodeToStatus() {
        return new NodeToStatus(nodeStatuses, absent);
    }

    public Map<String, Status> nodeStatuses() {
        return nodeStatuses;
    }

    /** The status of nodes with no status of their own; null when every node has one. */
    public Status absent() {
        return absent;
    }

    public String preFilterMsg() {
        return preFilterMsg;
    }

    public String postFilterMsg() {
        return postFilterMsg;
    }

    /** Records the PostFilter phase's message, appended to the FitError text. */
    public void setPostFilterMsg(String msg) {
        this.postFilterMsg = msg == null ? "" : msg;
    }

    /** The plugins whose rejections made the pod unschedulable (they decide what may requeue it). */
    public Set<String> unschedulablePlugins() {
        Set<String> plugins = new TreeSet<>();
        for (Status s : nodeStatuses.values()) {
            if (s.plugin() != null) {
                plugins.add(s.plugin());
            }
        }
        if (absent != null && absent.plugin() != null) {
            plugins.add(absent.plugin());
        }
        return plugins;
    }
}
