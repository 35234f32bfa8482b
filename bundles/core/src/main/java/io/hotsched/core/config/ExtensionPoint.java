package io.hotsched.core.config;

/** The extension points of a profile's {@code plugins} section, in the order upstream runs them. */
public enum ExtensionPoint {
    PRE_ENQUEUE("preEnqueue", "PreEnqueuePlugin"),
    QUEUE_SORT("queueSort", "QueueSortPlugin"),
    PRE_FILTER("preFilter", "PreFilterPlugin"),
    FILTER("filter", "FilterPlugin"),
    POST_FILTER("postFilter", "PostFilterPlugin"),
    PRE_SCORE("preScore", "PreScorePlugin"),
    SCORE("score", "ScorePlugin"),
    RESERVE("reserve", "ReservePlugin"),
    PERMIT("permit", "PermitPlugin"),
    PRE_BIND("preBind", "PreBindPlugin"),
    BIND("bind", "BindPlugin"),
    POST_BIND("postBind", "PostBindPlugin"),
    MULTI_POINT("multiPoint", "MultiPoint");

    private final String key;
    private final String typeName;

    ExtensionPoint(String key, String typeName) {
        this.key = key;
        this.typeName = typeName;
    }

    /** The field name in the configuration file. */
    public String key() {
        return key;
    }

    /** The name upstream uses in messages ({@code FilterPlugin}). */
    public String typeName() {
        return typeName;
    }

    public static ExtensionPoint ofKey(String key) {
        for (ExtensionPoint p : values()) {
            if (p.key.equals(key)) {
                return p;
            }
        }
        return null;
    }
}
