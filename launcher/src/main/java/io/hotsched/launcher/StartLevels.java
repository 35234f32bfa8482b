package io.hotsched.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which start level each platform bundle gets, by symbolic name. A rule is an exact name or a
 * prefix ending in {@code *}; the longest matching rule wins, and a bundle no rule names gets
 * the default.
 *
 * <p>Start levels are used only where OSGi dependencies cannot express the order: the service
 * loader mediator and the SLF4J provider must be active before the first logger is created, and
 * SCR comes last so components activate on a complete platform.
 */
public final class StartLevels {

    private record Rule(String pattern, int level) {
        boolean matches(String name) {
            return pattern.endsWith("*")
                    ? name.startsWith(pattern.substring(0, pattern.length() - 1))
                    : name.equals(pattern);
        }

        int weight() {
            return pattern.endsWith("*") ? pattern.length() - 1 : Integer.MAX_VALUE;
        }
    }

    public static final String DEFAULT_KEY = "default";

    private final List<Rule> rules = new ArrayList<>();
    private final int defaultLevel;

    /** Rules from {@code etc/startlevels.properties}; {@code default} sets the default level. */
    public StartLevels(Map<String, String> rules) {
        int def = 30;
        for (Map.Entry<String, String> e : rules.entrySet()) {
            int level;
            try {
                level = Integer.parseInt(e.getValue().strip());
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException(
                        "start level of '" + e.getKey() + "' is '" + e.getValue() + "', not a whole number");
            }
            if (level < 1) {
                throw new IllegalArgumentException(
                        "start level of '" + e.getKey() + "' is " + level + "; levels start at 1");
            }
            if (DEFAULT_KEY.equals(e.getKey())) {
                def = level;
            } else {
                this.rules.add(new Rule(e.getKey(), level));
            }
        }
        this.defaultLevel = def;
    }

    public int levelOf(String symbolicName) {
        Rule best = null;
        for (Rule r : rules) {
            if (r.matches(symbolicName) && (best == null || r.weight() > best.weight())) {
                best = r;
            }
        }
        return best == null ? defaultLevel : best.level();
    }
}
