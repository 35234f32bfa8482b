package io.hotsched.core.config;

import java.util.List;
import java.util.stream.Collectors;

/** A configuration that cannot be used, with every problem found (each naming file, line and field). */
public class ConfigException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient List<ConfigProblem> problems;

    public ConfigException(List<ConfigProblem> problems) {
        super(problems.stream().map(ConfigProblem::toString).collect(Collectors.joining("\n")));
        this.problems = List.copyOf(problems);
    }

    public List<ConfigProblem> problems() {
        return problems;
    }
}
