package io.hotsched.core.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * Reads a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) file: strict about fields
 * and types, applies upstream's defaults, and validates as upstream does. Every problem found is
 * reported at once, each with file, line and field; nothing is half-applied.
 */
public final class ConfigParser {

    public static final String API_VERSION = "kubescheduler.config.k8s.io/v1";
    public static final String KIND = "KubeSchedulerConfiguration";
    public static final String DEFAULT_SCHEDULER_NAME = "default-scheduler";
    /** The largest file read: what a ConfigMap can hold, so far more than any configuration needs. */
    static final long MAX_BYTES = 1024 * 1024;

    static final int DEFAULT_PARALLELISM = 16;
    static final long DEFAULT_INITIAL_BACKOFF = 1;
    static final long DEFAULT_MAX_BACKOFF = 10;

    private static final Set<String> TOP = Set.of(
            "apiVersion",
            "kind",
            "parallelism",
            "leaderElection",
            "clientConnection",
            "healthzBindAddress",
            "metricsBindAddress",
            "enableProfiling",
            "enableContentionProfiling",
            "percentageOfNodesToScore",
            "podInitialBackoffSeconds",
            "podMaxBackoffSeconds",
            "profiles",
            "extenders",
            "delayCacheUntilActive");
    private static final Set<String> LEADER_ELECTION = Set.of(
            "leaderElect",
            "leaseDuration",
            "renewDeadline",
            "retryPeriod",
            "resourceLock",
            "resourceName",
            "resourceNamespace");
    private static final Set<String> CLIENT_CONNECTION =
            Set.of("kubeconfig", "acceptContentTypes", "contentType", "qps", "burst");
    private static final Set<String> PROFILE =
            Set.of("schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig");
    private static final Set<String> PLUGIN_SET = Set.of("enabled", "disabled");
    private static final Set<String> PLUGIN = Set.of("name", "weight");
    private static final Set<String> PLUGIN_CONFIG = Set.of("name", "args");
    private static final Set<String> POINTS = pointKeys();

    private ConfigParser() {}

    /** The configuration upstream uses when none is given: one default profile. */
    public static SchedulerConfig defaults(String source) {
        Map<ExtensionPoint, PluginSet> plugins = new EnumMap<>(ExtensionPoint.class);
        plugins.put(ExtensionPoint.MULTI_POINT, new PluginSet(DefaultPlugins.MULTI_POINT, List.of()));
        ProfileConfig p = new ProfileConfig(DEFAULT_SCHEDULER_NAME, null, plugins, Map.of(), "profiles[0]");
        return new SchedulerConfig(
                source, DEFAULT_PARALLELISM, 0, DEFAULT_INITIAL_BACKOFF, DEFAULT_MAX_BACKOFF, List.of(p), List.of());
    }

    public static SchedulerConfig load(Path file) throws ConfigException {
        String text;
        try {
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw new ConfigException(List.of(new ConfigProblem(
                        file.toString(),
                        0,
                        "",
                        "is " + size + " bytes; a configuration may have at most " + MAX_BYTES
                                + " (1 MiB, what a ConfigMap holds)")));
            }
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new ConfigException(List.of(new ConfigProblem(
                    file.toString(), 0, "", "is not UTF-8 text; a configuration is YAML, written in UTF-8")));
        } catch (IOException e) {
            throw new ConfigException(
                    List.of(new ConfigProblem(file.toString(), 0, "", "cannot be read: " + e.getMessage())));
        }
        return parse(text, file.toString());
    }

    public static SchedulerConfig parse(String text, String file) throws ConfigException {
        List<ConfigProblem> problems = new ArrayList<>();
        Optional<Node> root;
        try {
            root = new Compose(LoadSettings.builder().setLabel(file).build()).composeString(text);
        } catch (MarkedYamlEngineException e) {
            int line = e.getProblemMark().map(m -> m.getLine() + 1).orElse(0);
            throw new ConfigException(List.of(new ConfigProblem(file, line, "", "not valid YAML: " + e.getProblem())));
        } catch (YamlEngineException e) {
            throw new ConfigException(List.of(new ConfigProblem(file, 0, "", "not valid YAML: " + e.getMessage())));
        } catch (StackOverflowError e) {
            // the composer recurses per level; a file nested this deep is no configuration
            throw new ConfigException(
                    List.of(new ConfigProblem(file, 0, "", "not valid YAML: nested too deeply to be read")));
        }
        if (root.isEmpty()) {
            throw new ConfigException(List.of(new ConfigProblem(
                    file,
                    0,
                    "",
                    "the file is empty; it needs at least apiVersion: " + API_VERSION + " and kind: " + KIND)));
        }
        SchedulerConfig config = new ConfigParser.Run(file, problems).top(root.get());
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return config;
    }

    private static Set<String> pointKeys() {
        Set<String> keys = new HashSet<>();
        for (ExtensionPoint p : ExtensionPoint.configured()) {
            keys.add(p.key());
        }
        return keys;
    }

    /** One parse: the reader and the problems found so far. */
    /** One named item of a list in the file: the item, its path, its fields and its name. */
    private interface NamedItem {
        void accept(Node item, String path, Map<String, Node> fields, String name);
    }

    private static final class Run {
        private final String file;
        private final YamlReader r;

        Run(String file, List<ConfigProblem> problems) {
            this.file = file;
            this.r = new YamlReader(file, problems);
        }

        /** The top-level field {@code name} is there and says {@code value} (apiVersion, kind). */
        private void requireValue(Node root, Map<String, Node> f, String name, String value) {
            String v = r.string(f.get(name), name);
            if (v == null && !f.containsKey(name)) {
                r.problem(root, name, "Required value: must be \"" + value + "\"");
            } else if (v != null && !value.equals(v)) {
                r.problem(f.get(name), name, "Unsupported value: \"" + v + "\": supported values: \"" + value + "\"");
            }
        }

        SchedulerConfig top(Node root) {
            Map<String, Node> f = r.fields(root, "", TOP);
            requireValue(root, f, "apiVersion", API_VERSION);
            requireValue(root, f, "kind", KIND);
            long parallelism = orDefault(r.int32(f.get("parallelism"), "parallelism"), DEFAULT_PARALLELISM);
            if (parallelism <= 0 || parallelism > Integer.MAX_VALUE) {
                r.problem(
                        f.get("parallelism"),
                        "parallelism",
                        "Invalid value: " + parallelism + ": should be an integer value greater than zero");
            }
            long pct = percentage(f.get("percentageOfNodesToScore"), "percentageOfNodesToScore", 0);
            long initial = orDefault(
                    r.integer(f.get("podInitialBackoffSeconds"), "podInitialBackoffSeconds"), DEFAULT_INITIAL_BACKOFF);
            if (initial <= 0) {
                r.problem(
                        f.get("podInitialBackoffSeconds"),
                        "podInitialBackoffSeconds",
                        "Invalid value: " + initial + ": must be greater than 0");
            }
            long max = orDefault(r.integer(f.get("podMaxBackoffSeconds"), "podMaxBackoffSeconds"), DEFAULT_MAX_BACKOFF);
            if (max < initial) {
                r.problem(
                        f.get("podMaxBackoffSeconds"),
                        "podMaxBackoffSeconds",
                        "Invalid value: " + max + ": must be greater than or equal to podInitialBackoffSeconds ("
                                + initial + ")");
            }
            leaderElection(f.get("leaderElection"));
            clientConnection(f.get("clientConnection"));
            r.string(f.get("healthzBindAddress"), "healthzBindAddress");
            r.string(f.get("metricsBindAddress"), "metricsBindAddress");
            r.bool(f.get("enableProfiling"), "enableProfiling");
            r.bool(f.get("enableContentionProfiling"), "enableContentionProfiling");
            r.bool(f.get("delayCacheUntilActive"), "delayCacheUntilActive");
            List<ProfileConfig> profiles = profiles(f.get("profiles"));
            List<ExtenderConfig> extenders = new ExtendersParser(r).parse(f.get("extenders"));
            return new SchedulerConfig(
                    file,
                    (int) Math.max(1, Math.min(parallelism, Integer.MAX_VALUE)),
                    (int) pct,
                    initial,
                    max,
                    profiles,
                    extenders);
        }

        private long percentage(Node node, String path, long dflt) {
            long pct = orDefault(r.int32(node, path), dflt);
            if (pct < 0 || pct > 100) {
                r.problem(node, path, "Invalid value: " + pct + ": not in valid range [0-100]");
            }
            return pct;
        }

        private void leaderElection(Node node) {
            Map<String, Node> f = r.fields(node, "leaderElection", LEADER_ELECTION);
            r.bool(f.get("leaderElect"), "leaderElection.leaderElect");
            for (String d : List.of("leaseDuration", "renewDeadline", "retryPeriod")) {
                r.duration(f.get(d), "leaderElection." + d);
            }
            for (String s : List.of("resourceLock", "resourceName", "resourceNamespace")) {
                r.string(f.get(s), "leaderElection." + s);
            }
        }

        private void clientConnection(Node node) {
            Map<String, Node> f = r.fields(node, "clientConnection", CLIENT_CONNECTION);
            for (String s : List.of("kubeconfig", "acceptContentTypes", "contentType")) {
                r.string(f.get(s), "clientConnection." + s);
            }
            Object qps = f.get("qps") == null ? null : r.plain(f.get("qps"), "", new LinkedHashMap<>());
            if (qps != null && !(qps instanceof Number)) {
                r.problem(f.get("qps"), "clientConnection.qps", "Invalid value: \"" + qps + "\": must be a number");
            }
            Long burst = r.int32(f.get("burst"), "clientConnection.burst");
            if (burst != null && burst < 0) {
                r.problem(
                        f.get("burst"), "clientConnection.burst", "Invalid value: " + burst + ": must be non-negative");
            }
        }

        private List<ProfileConfig> profiles(Node node) {
            List<Node> items = r.list(node, "profiles");
            List<ProfileConfig> out = new ArrayList<>();
            Set<String> names = new HashSet<>();
            for (int i = 0; i < items.size(); i++) {
                String path = "profiles[" + i + "]";
                Map<String, Node> f = r.fields(items.get(i), path, PROFILE);
                String name = r.string(f.get("schedulerName"), path + ".schedulerName");
                if (name == null || name.isEmpty()) {
                    // upstream defaults an absent name of a single profile, never a given empty one
                    if (items.size() == 1 && !f.containsKey("schedulerName")) {
                        name = DEFAULT_SCHEDULER_NAME;
                    } else {
                        r.problem(items.get(i), path + ".schedulerName", "Required value");
                        continue;
                    }
                }
                if (!names.add(name)) {
                    r.problem(
                            f.getOrDefault("schedulerName", items.get(i)),
                            path + ".schedulerName",
                            "Duplicate value: \"" + name + "\"");
                }
                Integer pct = f.containsKey("percentageOfNodesToScore")
                                && !YamlReader.isNull(f.get("percentageOfNodesToScore"))
                        ? (int) percentage(f.get("percentageOfNodesToScore"), path + ".percentageOfNodesToScore", 0)
                        : null;
                Map<ExtensionPoint, PluginSet> plugins =
                        plugins(f.get("plugins"), path + ".plugins", f.containsKey("plugins"));
                Map<String, PluginConfig> pluginConfig = pluginConfig(f.get("pluginConfig"), path + ".pluginConfig");
                out.add(new ProfileConfig(name, pct, plugins, pluginConfig, path));
            }
            if (items.isEmpty() && r != null) {
                return defaults(file).profiles();
            }
            return out;
        }

        private Map<ExtensionPoint, PluginSet> plugins(Node node, String path, boolean given) {
            Map<ExtensionPoint, PluginSet> custom = new EnumMap<>(ExtensionPoint.class);
            if (!given || YamlReader.isNull(node)) {
                custom.put(ExtensionPoint.MULTI_POINT, new PluginSet(DefaultPlugins.MULTI_POINT, List.of()));
                return custom;
            }
            Map<String, Node> f = r.fields(node, path, POINTS);
            for (Map.Entry<String, Node> e : f.entrySet()) {
                ExtensionPoint point = ExtensionPoint.ofKey(e.getKey());
                custom.put(point, pluginSet(e.getValue(), path + "." + e.getKey(), point));
            }
            PluginSet multi = custom.getOrDefault(ExtensionPoint.MULTI_POINT, PluginSet.EMPTY);
            custom.put(ExtensionPoint.MULTI_POINT, merge(DefaultPlugins.MULTI_POINT, multi));
            return custom;
        }

        /** Upstream's mergePluginSet: defaults first (unless disabled), a custom entry of the same name replaces a default in place, other custom entries follow. */
        private static PluginSet merge(List<PluginRef> defaults, PluginSet custom) {
            Set<String> disabled = new HashSet<>(custom.disabled());
            Map<String, PluginRef> customByName = new LinkedHashMap<>();
            for (PluginRef p : custom.enabled()) {
                customByName.put(p.name(), p);
            }
            List<PluginRef> enabled = new ArrayList<>();
            Set<String> replaced = new HashSet<>();
            if (!disabled.contains("*")) {
                for (PluginRef d : defaults) {
                    if (disabled.contains(d.name())) {
                        continue;
                    }
                    PluginRef c = customByName.get(d.name());
                    if (c != null) {
                        replaced.add(d.name());
                        enabled.add(c);
                    } else {
                        enabled.add(d);
                    }
                }
            }
            for (PluginRef c : custom.enabled()) {
                if (!replaced.contains(c.name())) {
                    enabled.add(c);
                }
            }
            return new PluginSet(enabled, custom.disabled());
        }

        private PluginSet pluginSet(Node node, String path, ExtensionPoint point) {
            Map<String, Node> f = r.fields(node, path, PLUGIN_SET);
            List<PluginRef> enabled = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            eachNamed(f.get("enabled"), path + ".enabled", PLUGIN, (item, p, pf, name) -> {
                if (!seen.add(name)) {
                    r.problem(
                            item,
                            p + ".name",
                            "Duplicate value: \"" + name + "\": plugin \"" + name + "\" already registered as \""
                                    + point.typeName() + "\"");
                }
                long weight = orDefault(r.int32(pf.get("weight"), p + ".weight"), 0);
                if (weight < 0) {
                    r.problem(
                            pf.get("weight"),
                            p + ".weight",
                            "Invalid value: " + weight + ": must not be negative (0 means the default weight 1)");
                    weight = 0;
                }
                enabled.add(new PluginRef(name, (int) weight, YamlReader.line(item)));
            });
            List<String> disabled = new ArrayList<>();
            eachNamed(f.get("disabled"), path + ".disabled", PLUGIN, (item, p, pf, name) -> disabled.add(name));
            return new PluginSet(enabled, disabled);
        }

        private Map<String, PluginConfig> pluginConfig(Node node, String path) {
            Map<String, PluginConfig> out = new LinkedHashMap<>();
            eachNamed(node, path, PLUGIN_CONFIG, (item, p, f, name) -> {
                if (out.containsKey(name)) {
                    r.problem(item, p, "Duplicate value: \"" + name + "\"");
                    return;
                }
                Map<String, Integer> lines = new LinkedHashMap<>();
                Object args = r.plain(f.get("args"), "", lines);
                if (args != null && !(args instanceof Map)) {
                    r.problem(f.get("args"), p + ".args", "must be a mapping of the plugin's arguments");
                    return;
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> argMap = args == null ? Map.of() : (Map<String, Object>) args;
                out.put(name, new PluginConfig(name, argMap, lines, YamlReader.line(item), p));
            });
            return out;
        }

        /** Each item of the list at {@code path} that has a name, with its path and fields; one without is a problem. */
        private void eachNamed(Node list, String path, Set<String> allowed, NamedItem each) {
            List<Node> items = r.list(list, path);
            for (int i = 0; i < items.size(); i++) {
                String p = path + "[" + i + "]";
                Map<String, Node> fields = r.fields(items.get(i), p, allowed);
                String name = r.string(fields.get("name"), p + ".name");
                if (name == null || name.isEmpty()) {
                    r.problem(items.get(i), p + ".name", "Required value");
                } else {
                    each.accept(items.get(i), p, fields, name);
                }
            }
        }

        private static long orDefault(Long v, long d) {
            return v == null ? d : v;
        }
    }
}
