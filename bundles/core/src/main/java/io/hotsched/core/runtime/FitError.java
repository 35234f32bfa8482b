package io.hotsched.core.runtime;

import io.hotsched.api.framework.PodInfo;

/** No node fits the pod; the message is upstream's "0/N nodes are available: ..." text. */
public final class FitError extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient PodInfo pod;
    private final int numAllNodes;
    private final transient Diagnosis diagnosis;

    public FitError(PodInfo pod, int numAllNodes, Diagnosis diagnosis) {
        super(null, null, false, false);
        this.pod = pod;
        this.numAllNodes = numAllNodes;
        this.diagnosis = diagnosis;
    }

    public PodInfo pod() {
        return pod;
    }

    public int numAllNodes() {
        return numAllNodes;
    }

    public Diagnosis diagnosis() {
        return diagnosis;
    }

    @Override
    public String getMessage() {
        return message(numAllNodes, diagnosis);
    }

    /**
     * "0/N nodes are available:" then the PreFilter message, or the sorted "count reason" list
     * over all nodes (nodes without a status of their own counted with the absent status), then
     * the PostFilter message.
     */
    public static String message(int numAllNodes, Diagnosis d) {
        StringBuilder b = new StringBuilder("0/").append(numAllNodes).append(" nodes are available:");
        if (!d.preFilterMsg().isEmpty()) {
            b.append(' ').append(d.preFilterMsg()).append('.');
        } else {
            b.append(' ').append(d.toNodeToStatus().histogram(numAllNodes)).append('.');
        }
        if (!d.postFilterMsg().isEmpty()) {
            b.append(' ').append(d.postFilterMsg());
        }
        return b.toString();
    }
}
