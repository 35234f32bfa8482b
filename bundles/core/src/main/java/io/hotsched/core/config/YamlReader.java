package io.hotsched.core.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * Reads typed values out of a YAML node tree, strictly (an unknown field is a problem, as with
 * upstream's strict decoding), recording every problem with its line and field path instead of
 * stopping at the first.
 */
final class YamlReader {

    private final String file;
    private final List<ConfigProblem> problems;

    YamlReader(String file, List<ConfigProblem> problems) {
        this.file = file;
        this.problems = problems;
    }

    static int line(Node node) {
        return node.getStartMark().map(m -> m.getLine() + 1).orElse(0);
    }

    void problem(Node node, String path, String message) {
        problems.add(new ConfigProblem(file, node == null ? 0 : line(node), path, message));
    }

    /** The fields of a mapping by name; unknown names and non-mappings are problems. */
    Map<String, Node> fields(Node node, String path, Set<String> allowed) {
        Map<String, Node> out = new LinkedHashMap<>();
        if (isNull(node)) {
            return out;
        }
        if (!(node instanceof MappingNode map)) {
            problem(node, path, "must be a mapping (key: value)");
            return out;
        }
        for (NodeTuple t : map.getValue()) {
            String key = t.getKeyNode() instanceof ScalarNode s ? s.getValue() : null;
            String fieldPath = join(path, String.valueOf(key));
            if (key == null) {
                problem(t.getKeyNode(), path, "keys must be plain strings");
            } else if (!allowed.contains(key)) {
                problem(
                        t.getKeyNode(),
                        fieldPath,
                        "unknown field \"" + key + "\"; known fields: " + String.join(", ", sorted(allowed)));
            } else if (out.containsKey(key)) {
                problem(t.getKeyNode(), fieldPath, "field given twice");
            } else {
                out.put(key, t.getValueNode());
            }
        }
        return out;
    }

    List<Node> list(Node node, String path) {
        if (isNull(node)) {
            return List.of();
        }
        if (!(node instanceof SequenceNode seq)) {
            problem(node, path, "must be a list");
            return List.of();
        }
        return seq.getValue();
    }

    String string(Node node, String path) {
        if (isNull(node)) {
            return null;
        }
        if (!(node instanceof ScalarNode s)) {
            problem(node, path, "must be a string");
            return null;
        }
        return s.getValue();
    }

    Long integer(Node node, String path) {
        if (isNull(node)) {
            return null;
        }
        if (node instanceof ScalarNode s && Tag.INT.equals(s.getTag())) {
            try {
                return Long.parseLong(s.getValue().replace("_", ""));
            } catch (NumberFormatException e) {
                problem(node, path, "Invalid value: " + s.getValue() + ": out of range");
                return null;
            }
        }
        problem(node, path, "Invalid value: " + describe(node) + ": must be an integer");
        return null;
    }

    /** An int32 field as upstream's types have it: a larger number is named, not wrapped or clipped. */
    Long int32(Node node, String path) {
        Long v = integer(node, path);
        if (v != null && (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE)) {
            problem(
                    node,
                    path,
                    "Invalid value: " + v + ": must be a 32-bit integer (" + Integer.MIN_VALUE + " to "
                            + Integer.MAX_VALUE + ")");
            return null;
        }
        return v;
    }

    Boolean bool(Node node, String path) {
        if (isNull(node)) {
            return null;
        }
        if (node instanceof ScalarNode s && Tag.BOOL.equals(s.getTag())) {
            return Boolean.parseBoolean(s.getValue().toLowerCase());
        }
        problem(node, path, "Invalid value: " + describe(node) + ": must be true or false");
        return null;
    }

    private static final Pattern DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

    /** A Go duration ({@code 15s}, {@code 1m30s}, {@code 500ms}) as a {@link Duration}; null when absent or invalid (reported). */
    Duration parsedDuration(Node node, String path) {
        String s = duration(node, path);
        if (s == null) {
            return null;
        }
        Matcher m = DURATION_PART.matcher(s);
        double nanos = 0;
        while (m.find()) {
            double v = Double.parseDouble(m.group(1));
            nanos += v
                    * switch (m.group(2)) {
                        case "ns" -> 1d;
                        case "us", "µs" -> 1e3;
                        case "ms" -> 1e6;
                        case "s" -> 1e9;
                        case "m" -> 60e9;
                        default -> 3600e9;
                    };
        }
        return Duration.ofNanos((long) nanos);
    }

    /** Durations as upstream writes them ({@code 15s}, {@code 1m30s}, {@code 500ms}), checked and returned as written. */
    String duration(Node node, String path) {
        String s = string(node, path);
        if (s != null && !s.matches("(\\d+(\\.\\d+)?(ns|us|µs|ms|s|m|h))+")) {
            problem(node, path, "Invalid value: \"" + s + "\": must be a duration such as 15s, 1m30s or 500ms");
            return null;
        }
        return s;
    }

    /**
     * The node as plain Java values (LinkedHashMap, ArrayList, String, Long, Double, Boolean,
     * null), recording the line of each field by its path relative to {@code base}.
     */
    Object plain(Node node, String base, Map<String, Integer> lines) {
        if (isNull(node)) {
            return null;
        }
        if (node instanceof MappingNode map) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (NodeTuple t : map.getValue()) {
                String key = t.getKeyNode() instanceof ScalarNode s
                        ? s.getValue()
                        : String.valueOf(plain(t.getKeyNode(), base, lines));
                String path = base.isEmpty() ? key : base + "." + key;
                lines.put(path, line(t.getKeyNode()));
                out.put(key, plain(t.getValueNode(), path, lines));
            }
            return out;
        }
        if (node instanceof SequenceNode seq) {
            List<Object> out = new ArrayList<>();
            List<Node> items = seq.getValue();
            for (int i = 0; i < items.size(); i++) {
                String path = base + "[" + i + "]";
                lines.put(path, line(items.get(i)));
                out.add(plain(items.get(i), path, lines));
            }
            return out;
        }
        ScalarNode s = (ScalarNode) node;
        Tag tag = s.getTag();
        try {
            if (Tag.INT.equals(tag)) {
                return Long.parseLong(s.getValue().replace("_", ""));
            }
            if (Tag.FLOAT.equals(tag)) {
                return Double.parseDouble(s.getValue());
            }
        } catch (NumberFormatException e) {
            return s.getValue();
        }
        if (Tag.BOOL.equals(tag)) {
            return Boolean.parseBoolean(s.getValue().toLowerCase());
        }
        return s.getValue();
    }

    static boolean isNull(Node node) {
        return node == null || Tag.NULL.equals(node.getTag());
    }

    static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    private static String describe(Node node) {
        return node instanceof ScalarNode s
                ? "\"" + s.getValue() + "\""
                : node.getNodeType().toString().toLowerCase();
    }

    private static List<String> sorted(Set<String> names) {
        List<String> l = new ArrayList<>(names);
        l.sort(null);
        return l;
    }
}
