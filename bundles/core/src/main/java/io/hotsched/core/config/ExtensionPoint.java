package io.hotsched.core.config;

import io.hotsched.api.framework.BindPlugin;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.PermitPlugin;
import io.hotsched.api.framework.PostBindPlugin;
import io.hotsched.api.framework.PostFilterPlugin;
import io.hotsched.api.framework.PreBindPlugin;
import io.hotsched.api.framework.PreEnqueuePlugin;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.QueueSortPlugin;
import io.hotsched.api.framework.ReservePlugin;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.ext.FilterTransformer;
import io.hotsched.api.framework.ext.PostFilterTransformer;
import io.hotsched.api.framework.ext.PreFilterTransformer;
import io.hotsched.api.framework.ext.ScoreTransformer;
import java.util.Arrays;
import java.util.List;

/**
 * The extension points, in the order upstream runs them: one name for the configuration's
 * {@code plugins} fields, the plugin time-outs, the {@code extension_point} metric label and the
 * messages. The points a profile configures have a {@link #key()}; the others (the PreFilter and
 * Score extensions, Unreserve) are called through a configured point's plugins and have their own
 * time-out and label, as upstream's metrics name them.
 */
public enum ExtensionPoint {
    PRE_ENQUEUE("preEnqueue", "PreEnqueue", PreEnqueuePlugin.class, null),
    QUEUE_SORT("queueSort", "QueueSort", QueueSortPlugin.class, null),
    PRE_FILTER("preFilter", "PreFilter", PreFilterPlugin.class, PreFilterTransformer.class),
    PRE_FILTER_ADD_POD(null, "PreFilterExtensionAddPod", null, null),
    PRE_FILTER_REMOVE_POD(null, "PreFilterExtensionRemovePod", null, null),
    FILTER("filter", "Filter", FilterPlugin.class, FilterTransformer.class),
    POST_FILTER("postFilter", "PostFilter", PostFilterPlugin.class, PostFilterTransformer.class),
    PRE_SCORE("preScore", "PreScore", PreScorePlugin.class, null),
    SCORE("score", "Score", ScorePlugin.class, ScoreTransformer.class),
    SCORE_NORMALIZE(null, "ScoreExtensionNormalize", null, null),
    RESERVE("reserve", "Reserve", ReservePlugin.class, null),
    UNRESERVE(null, "Unreserve", null, null),
    PERMIT("permit", "Permit", PermitPlugin.class, null),
    PRE_BIND("preBind", "PreBind", PreBindPlugin.class, null),
    BIND("bind", "Bind", BindPlugin.class, null),
    POST_BIND("postBind", "PostBind", PostBindPlugin.class, null),
    MULTI_POINT("multiPoint", "MultiPoint", null, null);

    private static final List<ExtensionPoint> CONFIGURED =
            Arrays.stream(values()).filter(p -> p.key != null).toList();

    private final String key;
    private final String label;
    private final Class<?> pluginType;
    private final Class<?> transformerType;

    ExtensionPoint(String key, String label, Class<?> pluginType, Class<?> transformerType) {
        this.key = key;
        this.label = label;
        this.pluginType = pluginType;
        this.transformerType = transformerType;
    }

    /** The field name in the configuration file; null for a point no profile configures. */
    public String key() {
        return key;
    }

    /** Upstream's name: the metric label, the time-out's name and how messages name the point. */
    public String label() {
        return label;
    }

    /** The name upstream uses in configuration messages ({@code FilterPlugin}). */
    public String typeName() {
        return this == MULTI_POINT ? label : label + "Plugin";
    }

    /** The interface a plugin implements to serve this point; null for MultiPoint and the extensions. */
    public Class<?> pluginType() {
        return pluginType;
    }

    /** The transformer interface of this point (Koordinator's FrameworkExtender), or null. */
    public Class<?> transformerType() {
        return transformerType;
    }

    /** The points of a profile's {@code plugins} section, MultiPoint included. */
    public static List<ExtensionPoint> configured() {
        return CONFIGURED;
    }

    /** The configured point of {@code key}, or null. */
    public static ExtensionPoint ofKey(String key) {
        for (ExtensionPoint p : CONFIGURED) {
            if (p.key.equals(key)) {
                return p;
            }
        }
        return null;
    }
}
