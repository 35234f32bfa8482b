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
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;
import java.util.Set;
import org.osgi.service.component.annotations.Component;

/**
 * Misbehaves on purpose, as its {@code mode} arg says: {@code throw} (Filter throws),
 * {@code sleep} (Filter takes {@code sleepMillis} on node {@code sleepNode}, as a plugin that
 * hangs), {@code score500} (Score returns 500), {@code ok}.
 */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + ItestFaulty.NAME)
public final class ItestFaulty implements PluginFactory {

    public static final String NAME = "ItestFaulty";

    /** The args. */
    public static final class Args {
        public String mode = "ok";
        public String sleepNode = "";
        public long sleepMillis = 1200;
    }

    @Override
    public Plugin create(PluginArgs args, Handle handle) throws InvalidArgsException {
        Args a = args.as(Args.class);
        if (!Set.of("ok", "throw", "sleep", "score500").contains(a.mode)) {
            throw new InvalidArgsException("mode", a.mode, "ok, throw, sleep or score500");
        }
        return new Faulty(a.mode, a.sleepNode, a.sleepMillis);
    }

    private record Faulty(String mode, String sleepNode, long sleepMillis) implements FilterPlugin, ScorePlugin {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            if (mode.equals("throw")) {
                throw new IllegalStateException("ItestFaulty broke on purpose");
            }
            if (mode.equals("sleep") && node.name().equals(sleepNode)) {
                try {
                    Thread.sleep(sleepMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Status.SUCCESS;
        }

        @Override
        public long score(CycleState state, PodInfo pod, NodeInfo node) {
            return mode.equals("score500") ? 500 : 0;
        }
    }
}
