package io.hotsched.core.runtime;

import io.hotsched.core.config.ExtensionPoint;

/**
 * Every way the framework calls a plugin: the extension point whose time-out and metric label
 * apply, what is called there (the plugin itself, a transformer, or one of the plugin's
 * extensions), and how an error names the call, as upstream words it.
 */
public enum PluginCall {
    PRE_ENQUEUE(ExtensionPoint.PRE_ENQUEUE, Kind.PLUGIN),
    QUEUE_SORT(ExtensionPoint.QUEUE_SORT, Kind.PLUGIN),
    BEFORE_PRE_FILTER(ExtensionPoint.PRE_FILTER, Kind.TRANSFORMER),
    PRE_FILTER(ExtensionPoint.PRE_FILTER, Kind.PLUGIN),
    AFTER_PRE_FILTER(ExtensionPoint.PRE_FILTER, Kind.TRANSFORMER),
    ADD_POD(ExtensionPoint.PRE_FILTER_ADD_POD, Kind.EXTENSION),
    REMOVE_POD(ExtensionPoint.PRE_FILTER_REMOVE_POD, Kind.EXTENSION),
    BEFORE_FILTER(ExtensionPoint.FILTER, Kind.TRANSFORMER),
    FILTER(ExtensionPoint.FILTER, Kind.PLUGIN),
    POST_FILTER(ExtensionPoint.POST_FILTER, Kind.PLUGIN),
    AFTER_POST_FILTER(ExtensionPoint.POST_FILTER, Kind.TRANSFORMER),
    PRE_SCORE(ExtensionPoint.PRE_SCORE, Kind.PLUGIN),
    BEFORE_SCORE(ExtensionPoint.SCORE, Kind.TRANSFORMER),
    SCORE(ExtensionPoint.SCORE, Kind.PLUGIN),
    NORMALIZE_SCORE(ExtensionPoint.SCORE_NORMALIZE, Kind.EXTENSION),
    RESERVE(ExtensionPoint.RESERVE, Kind.PLUGIN),
    UNRESERVE(ExtensionPoint.UNRESERVE, Kind.PLUGIN),
    PERMIT(ExtensionPoint.PERMIT, Kind.PLUGIN),
    PRE_BIND(ExtensionPoint.PRE_BIND, Kind.PLUGIN),
    BIND(ExtensionPoint.BIND, Kind.PLUGIN),
    POST_BIND(ExtensionPoint.POST_BIND, Kind.PLUGIN);

    /** What is called at the point. */
    public enum Kind {
        PLUGIN,
        TRANSFORMER,
        EXTENSION
    }

    private final ExtensionPoint point;
    private final String before;
    private final String after;

    PluginCall(ExtensionPoint point, Kind kind) {
        this.point = point;
        String label = point.label();
        if (point == ExtensionPoint.FILTER && kind == Kind.PLUGIN) {
            before = "running \"";
            after = "\" filter plugin";
        } else if (kind == Kind.TRANSFORMER) {
            before = "running " + label + "Transformer \"";
            after = "\"";
        } else if (kind == Kind.EXTENSION) {
            String op = point == ExtensionPoint.SCORE_NORMALIZE
                    ? "Normalize on Score"
                    : (point == ExtensionPoint.PRE_FILTER_ADD_POD ? "AddPod" : "RemovePod") + " on PreFilter";
            before = "running " + op + " plugin \"";
            after = "\"";
        } else {
            before = "running " + label + " plugin \"";
            after = "\"";
        }
    }

    /** The point whose time-out and {@code extension_point} label apply. */
    public ExtensionPoint point() {
        return point;
    }

    /**
     * Whether the call runs under the scheduling queue's lock (PreEnqueue, QueueSort), where it
     * cannot be given up: no other thread could take the lock either.
     */
    public boolean underQueueLock() {
        return this == PRE_ENQUEUE || this == QUEUE_SORT;
    }

    /** How an error names this call of {@code plugin}: {@code running "X" filter plugin}, {@code running Reserve plugin "X"}. */
    public String describe(String plugin) {
        return before + plugin + after;
    }
}
