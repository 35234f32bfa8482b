package io.hotsched.core.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.nodes.Node;

/** The {@code extenders} list: its fields, defaults and upstream's validation. */
final class ExtendersParser {

    private static final Set<String> EXTENDER = Set.of(
            "urlPrefix",
            "filterVerb",
            "preemptVerb",
            "prioritizeVerb",
            "weight",
            "bindVerb",
            "enableHTTPS",
            "tlsConfig",
            "httpTimeout",
            "nodeCacheCapable",
            "managedResources",
            "ignorable");
    private static final Set<String> TLS =
            Set.of("insecure", "serverName", "certFile", "keyFile", "caFile", "certData", "keyData", "caData");
    private static final Set<String> MANAGED = Set.of("name", "ignoredByScheduler");
    private static final Pattern QUALIFIED =
            Pattern.compile("([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
                    + "[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

    private final YamlReader r;

    ExtendersParser(YamlReader r) {
        this.r = r;
    }

    List<ExtenderConfig> parse(Node node) {
        List<ExtenderConfig> out = new ArrayList<>();
        List<Node> items = r.list(node, "extenders");
        Set<String> managedNames = new HashSet<>();
        int binders = 0;
        for (int i = 0; i < items.size(); i++) {
            String path = "extenders[" + i + "]";
            Node item = items.get(i);
            Map<String, Node> f = r.fields(item, path, EXTENDER);
            String url = r.string(f.get("urlPrefix"), path + ".urlPrefix");
            if (url == null || url.isEmpty()) {
                r.problem(
                        item,
                        path + ".urlPrefix",
                        "Required value: the extender's base URL, such as http://127.0.0.1:8888/scheduler");
            } else if (!url.startsWith("http://") && !url.startsWith("https://")) {
                r.problem(
                        f.get("urlPrefix"),
                        path + ".urlPrefix",
                        "Invalid value: \"" + url + "\": must start with http:// or https://");
            }
            String prioritize = verb(f, "prioritizeVerb", path);
            long weight = orZero(r.integer(f.get("weight"), path + ".weight"));
            if (!prioritize.isEmpty() && weight <= 0) {
                r.problem(
                        f.containsKey("weight") ? f.get("weight") : item,
                        path + ".weight",
                        "Invalid value: " + weight + ": must have a positive weight applied to it");
            }
            String bind = verb(f, "bindVerb", path);
            if (!bind.isEmpty()) {
                binders++;
            }
            List<ExtenderConfig.ManagedResource> managed = managed(f.get("managedResources"), path, managedNames);
            Duration t = r.parsedDuration(f.get("httpTimeout"), path + ".httpTimeout");
            Duration timeout = t == null || t.isZero() ? ExtenderConfig.DEFAULT_HTTP_TIMEOUT : t;
            out.add(new ExtenderConfig(
                    url == null ? "" : url,
                    verb(f, "filterVerb", path),
                    verb(f, "preemptVerb", path),
                    prioritize,
                    weight,
                    bind,
                    bool(f, "enableHTTPS", path),
                    tls(f.get("tlsConfig"), path + ".tlsConfig"),
                    timeout,
                    bool(f, "nodeCacheCapable", path),
                    managed,
                    bool(f, "ignorable", path)));
        }
        if (binders > 1) {
            r.problem(
                    node,
                    "extenders",
                    "Invalid value: \"found " + binders
                            + " extenders implementing bind\": only one extender can implement bind");
        }
        return out;
    }

    private String verb(Map<String, Node> f, String key, String path) {
        String v = r.string(f.get(key), path + "." + key);
        return v == null ? "" : v;
    }

    private boolean bool(Map<String, Node> f, String key, String path) {
        return Boolean.TRUE.equals(r.bool(f.get(key), path + "." + key));
    }

    private List<ExtenderConfig.ManagedResource> managed(Node node, String path, Set<String> seen) {
        List<ExtenderConfig.ManagedResource> out = new ArrayList<>();
        List<Node> items = r.list(node, path + ".managedResources");
        for (int j = 0; j < items.size(); j++) {
            String p = path + ".managedResources[" + j + "].name";
            Map<String, Node> f = r.fields(items.get(j), path + ".managedResources[" + j + "]", MANAGED);
            String name = r.string(f.get("name"), p);
            if (name == null) {
                r.problem(items.get(j), p, "Required value");
                continue;
            }
            String problem = extendedResourceProblem(name);
            if (problem != null) {
                r.problem(f.get("name"), p, "Invalid value: \"" + name + "\": " + problem);
            } else if (!seen.add(name)) {
                r.problem(
                        f.get("name"), p, "Invalid value: \"" + name + "\": duplicate extender managed resource name");
            }
            out.add(new ExtenderConfig.ManagedResource(
                    name,
                    Boolean.TRUE.equals(r.bool(
                            f.get("ignoredByScheduler"), path + ".managedResources[" + j + "].ignoredByScheduler"))));
        }
        return out;
    }

    /** Why {@code name} is not an extended resource name (upstream's rules), or null. */
    static String extendedResourceProblem(String name) {
        if (!QUALIFIED.matcher(name).matches() || name.length() > 316) {
            return "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                    + "alphanumeric character, with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
        }
        boolean nativeResource = !name.contains("/") || name.contains("kubernetes.io/");
        if (nativeResource || name.startsWith("requests.")) {
            return "is an invalid extended resource name";
        }
        return null;
    }

    private ExtenderConfig.Tls tls(Node node, String path) {
        if (YamlReader.isNull(node)) {
            return null;
        }
        Map<String, Node> f = r.fields(node, path, TLS);
        return new ExtenderConfig.Tls(
                bool(f, "insecure", path),
                r.string(f.get("serverName"), path + ".serverName"),
                r.string(f.get("certFile"), path + ".certFile"),
                r.string(f.get("keyFile"), path + ".keyFile"),
                r.string(f.get("caFile"), path + ".caFile"),
                base64(f.get("certData"), path + ".certData"),
                base64(f.get("keyData"), path + ".keyData"),
                base64(f.get("caData"), path + ".caData"));
    }

    private byte[] base64(Node node, String path) {
        String s = r.string(node, path);
        if (s == null || s.isEmpty()) {
            return null;
        }
        try {
            return Base64.getMimeDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            r.problem(
                    node,
                    path,
                    "Invalid value: not base64 (" + e.getMessage()
                            + "); give the PEM text base64-encoded, as in a kubeconfig");
            return null;
        }
    }

    private static long orZero(Long v) {
        return v == null ? 0 : v;
    }
}
