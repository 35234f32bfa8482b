package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.MockResponse;
import io.hotsched.embedded.FieldErrors.Cause;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A CustomResourceDefinition on its way to the store, as kube-apiserver takes it: refused with its
 * 422 when the names, scope, versions or subresources are not usable; otherwise defaulted
 * (singular, listKind, conversion) and given the status the apiextensions controllers would write
 * at once here (accepted names, stored versions, {@code NamesAccepted} and {@code Established}), so
 * {@code kubectl wait --for condition=established} returns.
 */
final class CrdAdmission {

    private CrdAdmission() {}

    /** The refusal of {@code crd}, or null after completing it in place. */
    static MockResponse admit(ObjectNode crd) {
        String name = crd.path("metadata").path("name").asText("");
        List<Cause> errors = errors(crd, name);
        if (!errors.isEmpty()) {
            return FieldErrors.invalidStatus("apiextensions.k8s.io", "CustomResourceDefinition", name, errors);
        }
        ObjectNode spec = (ObjectNode) crd.get("spec");
        ObjectNode names = (ObjectNode) spec.get("names");
        String kind = names.path("kind").asText();
        if (names.path("singular").asText("").isEmpty()) {
            names.put("singular", kind.toLowerCase(java.util.Locale.ROOT));
        }
        if (names.path("listKind").asText("").isEmpty()) {
            names.put("listKind", kind + "List");
        }
        if (!spec.path("conversion").isObject()) {
            spec.putObject("conversion").put("strategy", "None");
        }
        status(crd, names);
        return null;
    }

    private static List<Cause> errors(ObjectNode crd, String name) {
        List<Cause> errors = new ArrayList<>();
        JsonNode spec = crd.path("spec");
        String group = spec.path("group").asText("");
        String plural = spec.path("names").path("plural").asText("");
        required(errors, "spec.group", group);
        required(errors, "spec.names.plural", plural);
        required(errors, "spec.names.kind", spec.path("names").path("kind").asText(""));
        if (!group.isEmpty() && !plural.isEmpty() && !name.equals(plural + "." + group)) {
            errors.add(FieldErrors.invalid(
                    "metadata.name",
                    new FieldErrors.GoValue(StatusJson.quote(name)),
                    "must be spec.names.plural+\".\"+spec.group"));
        }
        String scope = spec.path("scope").asText("");
        if (scope.isEmpty()) {
            errors.add(FieldErrors.required("spec.scope", ""));
        } else if (!scope.equals("Cluster") && !scope.equals("Namespaced")) {
            errors.add(new Cause(
                    "FieldValueNotSupported",
                    "spec.scope",
                    "Unsupported value: " + StatusJson.quote(scope) + ": supported values: "
                            + "\"Cluster\", \"Namespaced\""));
        }
        JsonNode versions = spec.path("versions");
        int storage = 0;
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < versions.size(); i++) {
            JsonNode v = versions.get(i);
            String at = "spec.versions[" + i + "]";
            String version = v.path("name").asText("");
            required(errors, at + ".name", version);
            if (!version.isEmpty() && !seen.add(version)) {
                errors.add(FieldErrors.duplicate(at + ".name", new FieldErrors.GoValue(StatusJson.quote(version)), ""));
            }
            storage += v.path("storage").asBoolean(false) ? 1 : 0;
            if (!v.path("schema").path("openAPIV3Schema").isObject()) {
                errors.add(new Cause(
                        "FieldValueRequired", at + ".schema.openAPIV3Schema", "Required value: schemas are required"));
            }
            JsonNode scale = v.path("subresources").path("scale");
            if (scale.isObject()) {
                scalePath(
                        errors, at + ".subresources.scale.specReplicasPath", scale.path("specReplicasPath"), ".spec.");
                scalePath(
                        errors,
                        at + ".subresources.scale.statusReplicasPath",
                        scale.path("statusReplicasPath"),
                        ".status.");
            }
        }
        if (versions.isEmpty()) {
            errors.add(FieldErrors.invalid(
                    "spec.versions",
                    new FieldErrors.GoValue("null"),
                    "must have exactly one version marked as storage version"));
        } else if (storage != 1) {
            errors.add(FieldErrors.invalid(
                    "spec.versions",
                    new FieldErrors.GoValue(seen.toString()),
                    "must have exactly one version marked as storage version"));
        }
        return errors;
    }

    private static void required(List<Cause> errors, String field, String value) {
        if (value.isEmpty()) {
            errors.add(FieldErrors.required(field, ""));
        }
    }

    private static void scalePath(List<Cause> errors, String field, JsonNode value, String under) {
        String path = value.asText("");
        if (path.isEmpty()) {
            errors.add(FieldErrors.required(field, ""));
        } else if (!path.startsWith(under)) {
            errors.add(FieldErrors.invalid(
                    field,
                    new FieldErrors.GoValue(StatusJson.quote(path)),
                    "should be a json path under " + under.substring(0, under.length() - 1)));
        }
    }

    private static void status(ObjectNode crd, ObjectNode names) {
        JsonNode before = crd.path("status");
        ObjectNode status = crd.putObject("status");
        status.set("acceptedNames", names.deepCopy());
        Set<String> stored = new LinkedHashSet<>();
        before.path("storedVersions").forEach(v -> stored.add(v.asText()));
        crd.path("spec").path("versions").forEach(v -> {
            if (v.path("storage").asBoolean(false)) {
                stored.add(v.path("name").asText());
            }
        });
        ArrayNode storedVersions = status.putArray("storedVersions");
        stored.forEach(storedVersions::add);
        ArrayNode conditions = status.putArray("conditions");
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        condition(conditions, before, "NamesAccepted", "NoConflicts", "no conflicts found", now);
        condition(
                conditions, before, "Established", "InitialNamesAccepted", "the initial names have been accepted", now);
    }

    /** A True condition, keeping the transition time it had when it was True already. */
    private static void condition(
            ArrayNode conditions, JsonNode before, String type, String reason, String message, String now) {
        String since = now;
        for (JsonNode c : before.path("conditions")) {
            if (type.equals(c.path("type").asText())
                    && "True".equals(c.path("status").asText())
                    && c.hasNonNull("lastTransitionTime")) {
                since = c.path("lastTransitionTime").asText();
            }
        }
        conditions
                .addObject()
                .put("type", type)
                .put("status", "True")
                .put("lastTransitionTime", since)
                .put("reason", reason)
                .put("message", message);
    }
}
