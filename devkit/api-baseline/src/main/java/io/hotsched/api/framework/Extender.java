package io.hotsched.api.framework;

import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A scheduler extender of the configuration's {@code extenders} list (kube-scheduler's HTTP
 * webhook), as a plugin sees it through {@link Handle#extenders()}. The framework itself calls
 * the filter, prioritize and bind verbs; a PostFilter plugin that preempts calls
 * {@link #processPreemption} as upstream's DefaultPreemption does.
 *
 * @since 1.4
 */
@ProviderType
public interface Extender {

    /** The extender's {@code urlPrefix}, the name upstream gives it. */
    String name();

    /** True when its errors (and time-outs) are skipped instead of failing the attempt. */
    boolean isIgnorable();

    /** True when it has a {@code preemptVerb}. */
    boolean supportsPreemption();

    /**
     * True when the pod is sent to it: it manages no resources, or one that a container or init
     * container of the pod requests or limits.
     */
    boolean isInterested(PodInfo pod);

    /**
     * Lets the extender narrow preemption: it receives the candidate nodes with their victims and
     * answers the ones it accepts, possibly with fewer victims. Victims it names are looked up
     * by UID on their node in {@code nodes}.
     *
     * @throws ExtenderException when the call fails, the answer is malformed or names a pod that is
     *         not on that node; the message says which
     */
    Map<String, Victims> processPreemption(PodInfo pod, Map<String, Victims> nodeNameToVictims, NodeInfoLister nodes);
}
