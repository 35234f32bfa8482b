package io.hotsched.embedded;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * OpenAPI schemas of the served kinds, read from the fabric8 model classes the store already
 * speaks (their {@code @JsonProperty} fields are the wire names of the Kubernetes types), so a
 * field is known here exactly when fabric8 knows it. A schema is built when first asked for and
 * kept: the server's start does none of this work.
 */
final class OpenApiSchemas {

    /** Where {@link #ref} points: the v3 document's components (a v2 document rewrites it). */
    static final String REF_PREFIX = "#/components/schemas/";

    private static final String MODEL = "io.fabric8.kubernetes.api.model.";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Schema name to schema, for every class reached so far. */
    private final Map<String, ObjectNode> schemas = new ConcurrentHashMap<>();

    /** Kind key ({@code group/version/Kind}) to the name of its root schema. */
    private final Map<String, String> roots = new ConcurrentHashMap<>();

    /** The kind keys whose root is a CustomResourceDefinition's schema. */
    private final java.util.Set<String> custom = ConcurrentHashMap.newKeySet();

    /**
     * The name of the root schema of {@code kind} in {@code groupVersion} ({@code v1},
     * {@code apps/v1}), built with everything it refers to. A kind without a fabric8 class (a
     * custom resource) gets a schema that keeps any field.
     */
    String root(String groupVersion, String kind) {
        return roots.computeIfAbsent(groupVersion + "/" + kind, k -> {
            Class<?> type = modelClass(groupVersion, kind);
            String name = type != null ? define(type) : openKind(groupVersion, kind);
            ObjectNode gvk = JSON.createObjectNode()
                    .put(
                            "group",
                            groupVersion.contains("/") ? groupVersion.substring(0, groupVersion.indexOf('/')) : "")
                    .put("kind", kind)
                    .put("version", groupVersion.substring(groupVersion.indexOf('/') + 1));
            synchronized (this) {
                ObjectNode schema = schemas.get(name);
                schema.putArray("x-kubernetes-group-version-kind").add(gvk);
            }
            return name;
        });
    }

    /** The schema named {@code name}, or null. */
    ObjectNode schema(String name) {
        return schemas.get(name);
    }

    /**
     * The schema a {@code $ref}, a described reference ({@code allOf} of one {@code $ref}, as
     * upstream writes a field with a description of its own) or a plain schema stands for.
     */
    JsonNode resolve(JsonNode schema) {
        JsonNode allOf = schema.path("allOf");
        if (allOf.isArray() && allOf.size() == 1 && !schema.has("properties")) {
            schema = allOf.get(0);
        }
        String ref = schema.path("$ref").asText("");
        return ref.startsWith(REF_PREFIX) ? schemas.get(ref.substring(REF_PREFIX.length())) : schema;
    }

    /**
     * Serves the kinds of {@code definitions} with the schemas of their served versions, in place
     * of what they had (a built-in kind of the same name gets its own back once no definition names
     * it).
     */
    synchronized void customKinds(java.util.Collection<CustomResourceDefinitions.Definition> definitions) {
        for (String key : custom) {
            String name = roots.remove(key);
            if (name != null) {
                schemas.remove(name);
            }
        }
        custom.clear();
        for (CustomResourceDefinitions.Definition d : definitions) {
            for (CustomResourceDefinitions.Version v : d.versions()) {
                if (v.served() && v.schema().isObject()) {
                    String gv = d.group() + "/" + v.name();
                    String key = gv + "/" + d.kind();
                    roots.put(key, defineCustom(gv, d.kind(), v.schema()));
                    custom.add(key);
                }
            }
        }
    }

    /**
     * A definition's schema as a root, named as upstream names it ({@code sh.koordinator.scheduling
     * .v1alpha1.Reservation}): its own tree, with {@code apiVersion}, {@code kind} and
     * {@code metadata} as every object has them, and {@code additionalProperties: true} written as
     * the schema that keeps any field.
     */
    private String defineCustom(String groupVersion, String kind, JsonNode schema) {
        String group = groupVersion.substring(0, groupVersion.indexOf('/'));
        List<String> parts = new java.util.ArrayList<>(List.of(group.split("\\.")));
        java.util.Collections.reverse(parts);
        String name =
                String.join(".", parts) + "." + groupVersion.substring(groupVersion.indexOf('/') + 1) + "." + kind;
        ObjectNode root = (ObjectNode) openAdditional(schema.deepCopy());
        root.put("type", "object");
        ObjectNode properties = root.withObject("properties");
        properties.putObject("apiVersion").put("type", "string");
        properties.putObject("kind").put("type", "string");
        properties.set("metadata", ref(define(io.fabric8.kubernetes.api.model.ObjectMeta.class)));
        root.putArray("x-kubernetes-group-version-kind")
                .addObject()
                .put("group", group)
                .put("kind", kind)
                .put("version", groupVersion.substring(groupVersion.indexOf('/') + 1));
        schemas.put(name, root);
        return name;
    }

    private static JsonNode openAdditional(JsonNode node) {
        if (node instanceof ObjectNode o) {
            if (o.path("additionalProperties").isBoolean()
                    && o.path("additionalProperties").asBoolean()) {
                o.set("additionalProperties", open());
            }
            for (Map.Entry<String, JsonNode> e : o.properties()) {
                openAdditional(e.getValue());
            }
        } else if (node.isArray()) {
            node.forEach(OpenApiSchemas::openAdditional);
        }
        return node;
    }

    /** {@code name} and every schema it refers to, directly or not, into {@code out}. */
    void closure(String name, ObjectNode out) {
        if (out.has(name)) {
            return;
        }
        ObjectNode schema = schemas.get(name);
        out.set(name, schema);
        collectRefs(schema, out);
    }

    private void collectRefs(JsonNode node, ObjectNode out) {
        if (node.isObject()) {
            String ref = node.path("$ref").asText("");
            if (ref.startsWith(REF_PREFIX)) {
                closure(ref.substring(REF_PREFIX.length()), out);
            }
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                collectRefs(e.getValue(), out);
            }
        } else if (node.isArray()) {
            for (JsonNode item : node) {
                collectRefs(item, out);
            }
        }
    }

    /** The fabric8 class of a kind, by fabric8's package layout; null when there is none. */
    static Class<?> modelClass(String groupVersion, String kind) {
        if (!groupVersion.contains("/")) {
            return load(MODEL + kind);
        }
        String group = groupVersion.substring(0, groupVersion.indexOf('/'));
        String version = groupVersion.substring(groupVersion.indexOf('/') + 1);
        String pkg = MODEL + (group.contains(".") ? group.substring(0, group.indexOf('.')) : group) + ".";
        Class<?> c = load(pkg + version + "." + kind);
        return c != null ? c : load(pkg + kind);
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, OpenApiSchemas.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    private synchronized String define(Class<?> type) {
        String name = nameOf(type);
        if (schemas.containsKey(name)) {
            return name;
        }
        ObjectNode schema = JSON.createObjectNode().put("type", "object");
        // in before its fields, so a type that contains itself refers to itself
        schemas.put(name, schema);
        ObjectNode properties = schema.putObject("properties");
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                JsonProperty p = f.getAnnotation(JsonProperty.class);
                if (p == null || Modifier.isStatic(f.getModifiers()) || properties.has(p.value())) {
                    continue;
                }
                properties.set(
                        p.value(), described(schemaOf(f.getGenericType()), Descriptions.ofField(name, p.value())));
            }
        }
        String description = Descriptions.ofType(name);
        if (description != null) {
            schema.put("description", description);
        }
        if (properties.isEmpty()) {
            // a fabric8 type without fields of its own (raw JSON, an interface's stand-in)
            schema.remove("properties");
            schema.put("x-kubernetes-preserve-unknown-fields", true);
        }
        return name;
    }

    /**
     * A named string type, as upstream has them (so kubectl explain prints {@code <Quantity>}); a
     * manifest may also write these as numbers.
     */
    private synchronized String scalar(String name, String format) {
        schemas.computeIfAbsent(name, k -> {
            ObjectNode s = JSON.createObjectNode().put("type", "string");
            return format == null ? s : s.put("format", format);
        });
        return name;
    }

    private String openKind(String groupVersion, String kind) {
        String name = "io.hotsched.custom." + groupVersion.replace('/', '.') + "." + kind;
        ObjectNode schema = JSON.createObjectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("apiVersion").put("type", "string");
        properties.putObject("kind").put("type", "string");
        properties.set("metadata", ref(define(io.fabric8.kubernetes.api.model.ObjectMeta.class)));
        schema.put("x-kubernetes-preserve-unknown-fields", true);
        synchronized (this) {
            schemas.put(name, schema);
        }
        return name;
    }

    private ObjectNode schemaOf(Type type) {
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
            Type[] args = p.getActualTypeArguments();
            if (List.class.isAssignableFrom(raw)) {
                ObjectNode s = JSON.createObjectNode().put("type", "array");
                s.set("items", schemaOf(args[0]));
                return s;
            }
            if (Map.class.isAssignableFrom(raw)) {
                ObjectNode s = JSON.createObjectNode().put("type", "object");
                s.set("additionalProperties", schemaOf(args[1]));
                return s;
            }
            return schemaOf(raw);
        }
        if (!(type instanceof Class<?> c)) {
            return open();
        }
        if (c == String.class) {
            return JSON.createObjectNode().put("type", "string");
        }
        if (c == Boolean.class || c == boolean.class) {
            return JSON.createObjectNode().put("type", "boolean");
        }
        if (c == Integer.class || c == int.class) {
            return JSON.createObjectNode().put("type", "integer").put("format", "int32");
        }
        if (c == Long.class || c == long.class) {
            return JSON.createObjectNode().put("type", "integer").put("format", "int64");
        }
        if (c == Double.class || c == double.class || c == Float.class || c == float.class) {
            return JSON.createObjectNode().put("type", "number").put("format", "double");
        }
        if (c == io.fabric8.kubernetes.api.model.IntOrString.class) {
            return ref(scalar("io.k8s.apimachinery.pkg.util.intstr.IntOrString", "int-or-string"));
        }
        if (c == io.fabric8.kubernetes.api.model.Quantity.class) {
            return ref(scalar("io.k8s.apimachinery.pkg.api.resource.Quantity", null));
        }
        if (c.getName().startsWith("io.fabric8.kubernetes.api.model")
                && !c.isInterface()
                && !c.isEnum()
                && !ownWireForm(c)) {
            return ref(define(c));
        }
        return open();
    }

    /**
     * Whether fabric8 reads {@code c} with a deserializer of its own: its fields are then not its wire
     * form (a CRD's {@code items} is a schema or a list of them, {@code additionalProperties} a schema
     * or a boolean), so any JSON is accepted there, as upstream's schema does.
     */
    private static boolean ownWireForm(Class<?> c) {
        tools.jackson.databind.annotation.JsonDeserialize d =
                c.getAnnotation(tools.jackson.databind.annotation.JsonDeserialize.class);
        return d != null && d.using() != tools.jackson.databind.ValueDeserializer.None.class;
    }

    /**
     * {@code schema} with {@code description}: a reference is wrapped in an {@code allOf}, as
     * upstream does, since OpenAPI 3.0 ignores what stands beside a {@code $ref}.
     */
    private static ObjectNode described(ObjectNode schema, String description) {
        if (description == null) {
            return schema;
        }
        if (schema.has("$ref")) {
            ObjectNode wrapped = JSON.createObjectNode();
            wrapped.putArray("allOf").add(schema);
            return wrapped.put("description", description);
        }
        return schema.put("description", description);
    }

    private static ObjectNode ref(String name) {
        return JSON.createObjectNode().put("$ref", REF_PREFIX + name);
    }

    /** Any JSON (an {@code Object}, an interface, a raw extension). */
    private static ObjectNode open() {
        return JSON.createObjectNode().put("x-kubernetes-preserve-unknown-fields", true);
    }

    /**
     * A name in upstream's style whose last part is the Go type's name (kubectl explain prints it):
     * {@code io.k8s.api.core.PodSpec} for fabric8's {@code io.fabric8.kubernetes.api.model.PodSpec}.
     */
    private static String nameOf(Class<?> c) {
        String n = c.getName();
        if (!n.startsWith(MODEL)) {
            return n;
        }
        String rest = n.substring(MODEL.length());
        return rest.contains(".") ? "io.k8s.api." + rest : "io.k8s.api.core." + rest;
    }
}
