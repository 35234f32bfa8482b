package io.hotsched.itest.plugins;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.Version;
import org.osgi.service.component.annotations.Component;

/**
 * A Filter that changes with its bundle's version: from major version 2 on it refuses one node more
 * than before (the {@code refuseFromVersion2} of its args), so a test can run version 2 in shadow
 * beside version 1 and know which pods it would place elsewhere.
 */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + ItestPicky.NAME)
public final class ItestPicky implements PluginFactory {

    public static final String NAME = "ItestPicky";

    /** The args: the node version 2 and later refuse. */
    public static final class Args {
        public String refuseFromVersion2 = "";
    }

    @Override
    public Plugin create(PluginArgs args, Handle handle) throws InvalidArgsException {
        Version version = FrameworkUtil.getBundle(ItestPicky.class).getVersion();
        String node = args.as(Args.class).refuseFromVersion2;
        if (node == null) {
            throw new InvalidArgsException("refuseFromVersion2", null, "a node name, or empty");
        }
        String refused = version.getMajor() >= 2 ? node : "";
        String reason = "node refused by " + NAME + " " + version;
        return new FilterPlugin() {
            @Override
            public String name() {
                return NAME;
            }

            @Override
            public Status filter(CycleState state, PodInfo pod, NodeInfo n) {
                return n.name().equals(refused) ? Status.unschedulable(reason) : Status.SUCCESS;
            }
        };
    }
}
