package io.hotsched.shell;

import java.util.List;
import java.util.Map;

/** Nested maps and lists as indented lines, YAML-like: what {@code sched:state} prints. */
final class Outline {

    private Outline() {}

    static void write(StringBuilder b, Object value, int depth) {
        String indent = "  ".repeat(depth);
        if (value instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                b.append(indent).append("(nothing)\n");
            }
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (e.getValue() instanceof Map<?, ?>
                        || e.getValue() instanceof List<?> l && !l.isEmpty() && !scalars(l)) {
                    b.append(indent).append(e.getKey()).append(":\n");
                    write(b, e.getValue(), depth + 1);
                } else {
                    b.append(indent)
                            .append(e.getKey())
                            .append(": ")
                            .append(inline(e.getValue()))
                            .append('\n');
                }
            }
        } else if (value instanceof List<?> l) {
            for (Object o : l) {
                if (o instanceof Map<?, ?> || o instanceof List<?>) {
                    b.append(indent).append("-\n");
                    write(b, o, depth + 1);
                } else {
                    b.append(indent).append("- ").append(o).append('\n');
                }
            }
        } else {
            b.append(indent).append(value).append('\n');
        }
    }

    private static boolean scalars(List<?> l) {
        return l.stream().noneMatch(o -> o instanceof Map<?, ?> || o instanceof List<?>);
    }

    private static String inline(Object v) {
        if (v instanceof List<?> l) {
            return l.toString();
        }
        return String.valueOf(v);
    }
}
