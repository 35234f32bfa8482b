package io.hotsched.plugins.loadaware;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import org.osgi.service.component.annotations.Component;

/**
 * Koordinator's LoadAwareScheduling: Filter rejects nodes whose measured usage (NodeMetric) plus
 * the estimated usage of the pods placed since, plus the incoming pod's, would cross the usage
 * thresholds; Score prefers the least loaded nodes. See docs/plugin-loadaware.md.
 */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + LoadAwareScheduling.NAME)
public final class LoadAwareScheduling implements PluginFactory {

    public static final String NAME = "LoadAwareScheduling";
    public static final String ERR_EXPIRED = "node(s) nodeMetric expired";

    /** The kind the cluster connection reports NodeMetrics as. */
    public static final String NODE_METRIC = "NodeMetric";

    static String errUsage(String resource, boolean aggregated) {
        return "node(s) " + resource + (aggregated ? " aggregated" : "") + " usage exceed threshold";
    }

    @Override
    public Plugin create(PluginArgs args, Handle handle) throws InvalidArgsException {
        return new LoadAware(LoadAwareArgs.defaulted(args.as(Args.class)), handle);
    }
}
