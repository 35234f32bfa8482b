package io.hotsched.core.scheduler;

import io.hotsched.core.config.ConfigProblem;
import io.hotsched.core.config.ProfileConfig;
import io.hotsched.core.runtime.FrameworkImpl;
import java.util.List;
import java.util.Set;

/**
 * One profile at one moment: its framework when ready; otherwise the plugins it waits for, or the
 * problems that stop it (a plugin that arrived with arguments it refuses).
 */
public record ProfileState(
        ProfileConfig config, FrameworkImpl framework, Set<String> waitingFor, List<ConfigProblem> problems) {

    public boolean ready() {
        return framework != null;
    }

    public String name() {
        return config.schedulerName();
    }

    /** One line: "ready", "waiting for plugin(s) A, B", or the first problem. */
    public String describe() {
        if (ready()) {
            return "ready";
        }
        if (!waitingFor.isEmpty()) {
            return "paused: waiting for plugin(s) " + String.join(", ", waitingFor);
        }
        return "paused: " + (problems.isEmpty() ? "not built" : problems.get(0).toString());
    }
}
