package io.hotsched.platform.deploy;

import java.util.ArrayList;
import java.util.List;

/** The names in an OSGi manifest header of clauses ({@code a.b;c.d;version="[1,2)",e.f}). */
final class ManifestClauses {

    private ManifestClauses() {}

    /** The package names of {@code header}'s clauses, without their attributes and directives; empty for null. */
    static List<String> packages(String header) {
        List<String> names = new ArrayList<>();
        if (header == null) {
            return names;
        }
        for (String clause : split(header, ',')) {
            for (String part : split(clause, ';')) {
                String p = part.strip();
                if (!p.isEmpty() && !p.contains("=")) {
                    names.add(p);
                }
            }
        }
        return names;
    }

    /** {@code s} split at {@code separator}s outside double quotes (a version range holds a comma). */
    private static List<String> split(String s, char separator) {
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (char c : s.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            }
            if (c == separator && !quoted) {
                parts.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        parts.add(current.toString());
        return parts;
    }
}
