package ${package};

import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.PluginArgs;
import java.util.List;

/**
 * What ${pluginName} runs with: the {@code pluginConfig} args of a profile, defaulted, then
 * validated. A bad value is refused with the field's name, and the scheduler keeps the
 * configuration it had.
 *
 * @param minFreeMilliCpu cpu (millicores) a node must keep free once the pod is on it
 * @param strategy {@code spread} prefers the node left with the most free cpu, {@code pack} the least
 */
public record ${pluginName}Args(long minFreeMilliCpu, String strategy) {

    public static final List<String> STRATEGIES = List.of("spread", "pack");

    public static final ${pluginName}Args DEFAULTS = new ${pluginName}Args(500, "spread");

    /** The args as written in the configuration: a field left out is null and gets its default. */
    public static final class Written {
        public Long minFreeMilliCpu;
        public String strategy;
    }

    /** Binds, defaults and validates a profile's args. */
    public static ${pluginName}Args from(PluginArgs args) throws InvalidArgsException {
        Written w = args.isEmpty() ? new Written() : args.as(Written.class);
        ${pluginName}Args a = new ${pluginName}Args(
                w.minFreeMilliCpu == null ? DEFAULTS.minFreeMilliCpu() : w.minFreeMilliCpu,
                w.strategy == null ? DEFAULTS.strategy() : w.strategy);
        if (a.minFreeMilliCpu() < 0) {
            throw new InvalidArgsException("minFreeMilliCpu", a.minFreeMilliCpu(), "must be 0 or more");
        }
        if (!STRATEGIES.contains(a.strategy())) {
            throw new InvalidArgsException("strategy", a.strategy(), "one of " + String.join(", ", STRATEGIES));
        }
        return a;
    }
}
