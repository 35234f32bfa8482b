package io.hotsched.embedded;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The CustomResourceDefinitions in the store and the kinds they serve: kept in step with the
 * store's single write path, so discovery, OpenAPI, validation, tables and the scale subresource
 * see a kind as soon as its definition is written, and no longer once it is deleted. A definition
 * for a resource the server has built in (Koordinator's Device, NodeMetric) takes its place.
 */
final class CustomResourceDefinitions {

    static final String PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** One column of {@code kubectl get}, from {@code additionalPrinterColumns}. */
    record Column(String name, String type, String format, String description, int priority, String jsonPath) {}

    /** The scale subresource's paths ({@code .spec.replicas} ...); the selector path may be empty. */
    record ScalePaths(String specReplicas, String statusReplicas, String labelSelector) {}

    /** One version of a definition. */
    record Version(
            String name,
            boolean served,
            boolean storage,
            JsonNode schema,
            boolean status,
            ScalePaths scale,
            List<Column> columns) {}

    /** A definition, as read from a stored CustomResourceDefinition. */
    record Definition(
            String name,
            String group,
            String kind,
            String listKind,
            String plural,
            String singular,
            List<String> shortNames,
            List<String> categories,
            boolean namespaced,
            List<Version> versions) {

        Version version(String version) {
            for (Version v : versions) {
                if (v.name().equals(version) && v.served()) {
                    return v;
                }
            }
            return null;
        }

        /** {@code plural.group}, as kube-apiserver names the resource in its messages. */
        String resource() {
            return plural + "." + group;
        }

        /** {@code Kind.group}, as kube-apiserver names the kind in its messages. */
        String qualifiedKind() {
            return kind + "." + group;
        }
    }

    private final Map<String, Definition> byName = new ConcurrentHashMap<>();
    private volatile Map<String, List<Discovery.Res>> groups = Discovery.GROUPS;

    /** Whether {@code path} is a definition's (or their collection's). */
    static boolean isDefinitionPath(String path) {
        return path.startsWith(PATH);
    }

    /**
     * Follows a write of the store: {@code newState} null is a deletion of {@code oldState}.
     *
     * @return the definition that stopped being served (its objects are to go), or null
     */
    Definition written(String path, String oldState, String newState) {
        if (!isDefinitionPath(path)) {
            return null;
        }
        JsonNode now = parse(newState);
        if (now != null) {
            Definition d = read(now);
            if (d != null) {
                byName.put(d.name(), d);
                rebuild();
            }
            return null;
        }
        JsonNode before = parse(oldState);
        String name =
                before == null ? null : before.path("metadata").path("name").asText(null);
        Definition gone = name == null ? null : byName.remove(name);
        if (gone != null) {
            rebuild();
        }
        return gone;
    }

    void clear() {
        byName.clear();
        rebuild();
    }

    /** The served group-versions and their resources: the built-in ones and the definitions'. */
    Map<String, List<Discovery.Res>> groups() {
        return groups;
    }

    Collection<Definition> all() {
        return byName.values();
    }

    /** The definition serving {@code plural} in {@code group}/{@code version}, or null. */
    Definition served(String group, String version, String plural) {
        Definition d = byName.get(plural + "." + group);
        return d != null && d.version(version) != null ? d : null;
    }

    /** Whether a definition (served or not in this version) claims {@code group}. */
    boolean claims(String group) {
        for (Definition d : byName.values()) {
            if (d.group().equals(group)) {
                return true;
            }
        }
        return false;
    }

    private synchronized void rebuild() {
        Map<String, List<Discovery.Res>> out = new LinkedHashMap<>();
        Discovery.GROUPS.forEach((gv, resources) -> out.put(gv, new ArrayList<>(resources)));
        List<Definition> sorted = byName.values().stream()
                .sorted((a, b) -> a.name().compareTo(b.name()))
                .toList();
        for (Definition d : sorted) {
            for (Version v : d.versions()) {
                if (!v.served()) {
                    continue;
                }
                List<Discovery.Res> resources = out.computeIfAbsent(d.group() + "/" + v.name(), k -> new ArrayList<>());
                // the definition takes the place of a built-in resource of the same name
                resources.removeIf(r -> r.name().equals(d.plural()) || r.name().startsWith(d.plural() + "/"));
                resources.add(new Discovery.Res(
                        d.plural(),
                        d.kind(),
                        d.namespaced(),
                        d.singular(),
                        d.categories(),
                        d.shortNames().toArray(String[]::new)));
                if (v.status()) {
                    resources.add(new Discovery.Res(d.plural() + "/status", d.kind(), d.namespaced()));
                }
                if (v.scale() != null) {
                    resources.add(new Discovery.Res(d.plural() + "/scale", "Scale", d.namespaced()));
                }
            }
        }
        out.replaceAll((gv, resources) -> List.copyOf(resources));
        groups = java.util.Collections.unmodifiableMap(out);
    }

    /** The definition a stored CustomResourceDefinition describes; null when it names no group or kind. */
    static Definition read(JsonNode crd) {
        JsonNode spec = crd.path("spec");
        JsonNode names = spec.path("names");
        String group = spec.path("group").asText("");
        String kind = names.path("kind").asText("");
        String plural = names.path("plural").asText("");
        if (group.isEmpty() || kind.isEmpty() || plural.isEmpty()) {
            return null;
        }
        List<Version> versions = new ArrayList<>();
        for (JsonNode v : spec.path("versions")) {
            JsonNode sub = v.path("subresources");
            JsonNode scale = sub.path("scale");
            List<Column> columns = new ArrayList<>();
            for (JsonNode c : v.path("additionalPrinterColumns")) {
                columns.add(new Column(
                        c.path("name").asText(),
                        c.path("type").asText("string"),
                        c.path("format").asText(""),
                        c.path("description").asText(""),
                        c.path("priority").asInt(0),
                        c.path("jsonPath").asText()));
            }
            versions.add(new Version(
                    v.path("name").asText(),
                    v.path("served").asBoolean(true),
                    v.path("storage").asBoolean(false),
                    v.path("schema").path("openAPIV3Schema"),
                    sub.has("status"),
                    scale.isObject()
                            ? new ScalePaths(
                                    scale.path("specReplicasPath").asText(""),
                                    scale.path("statusReplicasPath").asText(""),
                                    scale.path("labelSelectorPath").asText(""))
                            : null,
                    List.copyOf(columns)));
        }
        return new Definition(
                crd.path("metadata").path("name").asText(plural + "." + group),
                group,
                kind,
                names.path("listKind").asText(kind + "List"),
                plural,
                names.path("singular").asText(kind.toLowerCase(java.util.Locale.ROOT)),
                strings(names.path("shortNames")),
                strings(names.path("categories")),
                !"Cluster".equals(spec.path("scope").asText()),
                List.copyOf(versions));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return List.copyOf(out);
    }

    private static JsonNode parse(String json) {
        try {
            return json == null ? null : JSON.readTree(json);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
