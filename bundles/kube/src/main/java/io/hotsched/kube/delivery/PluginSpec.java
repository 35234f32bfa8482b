package io.hotsched.kube.delivery;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;

/**
 * What a SchedulerPlugin asks for, read from its {@code spec}. The schema checks the fields on a
 * real API server; this checks them again, since a replica must not act on a malformed object.
 */
public record PluginSpec(String name, long generation, Source source, String sha256, boolean active, boolean shadow) {

    /** Where the jar comes from: a URL, or a key of a ConfigMap's binaryData or a Secret's data. */
    public record Source(String url, String kind, String namespace, String objectName, String key) {

        @Override
        public String toString() {
            return url != null ? url : kind + " " + namespace + "/" + objectName + " key " + key;
        }
    }

    public static PluginSpec of(GenericKubernetesResource o) throws Refusal {
        String name = o.getMetadata().getName();
        Long generation = o.getMetadata().getGeneration();
        Map<?, ?> spec = map(o.getAdditionalProperties().get("spec"), "spec");
        String sha = string(spec, "sha256", "spec.sha256");
        if (sha == null || !sha.matches("[0-9a-f]{64}")) {
            throw new Refusal("spec.sha256 must be 64 lower-case hex digits (the jar's SHA-256), not " + quoted(sha));
        }
        return new PluginSpec(
                name,
                generation == null ? 0 : generation,
                source(map(spec.get("source"), "spec.source")),
                sha,
                flag(spec, "active", true),
                flag(spec, "shadow", false));
    }

    private static boolean flag(Map<?, ?> spec, String key, boolean unset) throws Refusal {
        Object v = spec.get(key);
        if (v != null && !(v instanceof Boolean)) {
            throw new Refusal("spec." + key + " must be true or false, not " + quoted(String.valueOf(v)));
        }
        return v == null ? unset : (Boolean) v;
    }

    private static Source source(Map<?, ?> source) throws Refusal {
        int set = (source.containsKey("url") ? 1 : 0)
                + (source.containsKey("configMap") ? 1 : 0)
                + (source.containsKey("secret") ? 1 : 0);
        if (set != 1) {
            throw new Refusal("spec.source: set exactly one of url, configMap and secret");
        }
        if (source.containsKey("url")) {
            String url = string(source, "url", "spec.source.url");
            if (url == null || !url.startsWith("https://")) {
                throw new Refusal("spec.source.url must be an https URL, not " + quoted(url));
            }
            return new Source(url, null, null, null, null);
        }
        String kind = source.containsKey("configMap") ? "configMap" : "secret";
        Map<?, ?> ref = map(source.get(kind), "spec.source." + kind);
        return new Source(
                null,
                kind.equals("configMap") ? "ConfigMap" : "Secret",
                required(ref, "namespace", "spec.source." + kind + ".namespace"),
                required(ref, "name", "spec.source." + kind + ".name"),
                required(ref, "key", "spec.source." + kind + ".key"));
    }

    private static Map<?, ?> map(Object value, String field) throws Refusal {
        if (value instanceof Map<?, ?> m) {
            return m;
        }
        throw new Refusal(field + " is " + (value == null ? "missing" : "not an object"));
    }

    private static String required(Map<?, ?> m, String key, String field) throws Refusal {
        String s = string(m, key, field);
        if (s == null || s.isBlank()) {
            throw new Refusal(field + " is missing");
        }
        return s;
    }

    private static String string(Map<?, ?> m, String key, String field) throws Refusal {
        Object v = m.get(key);
        if (v == null || v instanceof String) {
            return (String) v;
        }
        throw new Refusal(field + " must be a string, not " + v);
    }

    private static String quoted(String s) {
        return s == null ? "nothing" : "'" + s + "'";
    }
}
