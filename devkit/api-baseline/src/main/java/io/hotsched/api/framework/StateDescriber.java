package io.hotsched.api.framework;

import java.util.Map;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A plugin that shows users what it knows (the shell's {@code sched:state <plugin> [node]}; what
 * Koordinator serves under {@code /apis/v1/plugins/<name>}). Optional: a plugin implements it
 * next to its extension points.
 *
 * @since 1.3
 */
@ConsumerType
public interface StateDescriber extends Plugin {

    /**
     * The plugin's state for {@code node}, or for every node it has state for when {@code node} is
     * null: for display, as nested maps and lists of strings and numbers, in the order to show.
     * Called from the shell's thread while the plugin schedules: it must not block scheduling.
     */
    Map<String, Object> describeState(String node);
}
