package io.hotsched.kube.serving;

import java.util.Arrays;
import java.util.List;

/**
 * {@code --authorization-always-allow-paths}: paths served to anyone, unauthenticated, as
 * kube-scheduler serves its probes; an entry ending in {@code *} matches every path it prefixes.
 */
public record AlwaysAllowPaths(List<String> entries) {

    public static AlwaysAllowPaths parse(String commaSeparated) {
        return new AlwaysAllowPaths(Arrays.stream(commaSeparated == null ? new String[0] : commaSeparated.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList());
    }

    public boolean allows(String path) {
        for (String e : entries) {
            if (e.endsWith("*") ? path.startsWith(e.substring(0, e.length() - 1)) : path.equals(e)) {
                return true;
            }
        }
        return false;
    }
}
