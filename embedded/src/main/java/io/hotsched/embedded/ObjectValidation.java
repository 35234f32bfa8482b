package io.hotsched.embedded;

import io.hotsched.embedded.FieldErrors.Cause;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * What kube-apiserver refuses in a create or update before anything is stored, for every kind:
 * the object's name (an RFC 1123 subdomain; a label for namespaces, an RFC 1035 label for
 * services, a path segment for RBAC objects), a name or generateName on create, label and
 * annotation syntax; and per kind {@link PodValidation} and {@link NodeValidation}.
 */
final class ObjectValidation {

    private static final int ANNOTATIONS_MAX_BYTES = 256 * 1024;

    private static final byte[] TAINTS = "\"taints\"".getBytes(StandardCharsets.UTF_8);
    private static final byte[] POD_CIDRS = "\"podCIDRs\"".getBytes(StandardCharsets.UTF_8);
    private static final byte[] ALLOCATABLE = "\"allocatable\"".getBytes(StandardCharsets.UTF_8);
    private static final byte[] CAPACITY = "\"capacity\"".getBytes(StandardCharsets.UTF_8);

    /** Groups of requests that are not stored objects (access and token reviews): nothing to name. */
    private static final Set<String> UNNAMED = Set.of("authorization.k8s.io", "authentication.k8s.io");

    private static final Set<String> RBAC = Set.of("roles", "clusterroles", "rolebindings", "clusterrolebindings");

    private ObjectValidation() {}

    /**
     * The errors in an object written at {@code target}: {@code tree} is the parsed object when there
     * is one, {@code old} the stored one of an update (both there for the kinds that
     * {@link #needsTree} names).
     */
    static List<Cause> check(ResourcePath target, ObjectMeta meta, JsonNode tree, JsonNode old, boolean update) {
        List<Cause> causes = new ArrayList<>();
        if (UNNAMED.contains(target.group())) {
            return causes;
        }
        if (!update) {
            name(target, meta, causes);
        }
        labels(meta, causes);
        annotations(meta, causes);
        if (tree != null && target.group().isEmpty()) {
            switch (target.resource()) {
                case "pods" -> PodValidation.check(tree, old, causes);
                case "nodes" -> NodeValidation.check(tree, old, causes);
                default -> {}
            }
        }
        return causes;
    }

    /**
     * Whether validating a write of {@code body} at {@code target} needs the parsed object: a pod's
     * always, a node's when it is an update or has something of its spec to check.
     */
    static boolean needsTree(ResourcePath target, byte[] body, boolean update) {
        if (!target.group().isEmpty()) {
            return false;
        }
        return switch (target.resource()) {
            case "pods" -> true;
            case "nodes" ->
                update
                        || ObjectMeta.mentions(body, TAINTS)
                        || ObjectMeta.mentions(body, POD_CIDRS)
                        || ObjectMeta.mentions(body, ALLOCATABLE)
                        || ObjectMeta.mentions(body, CAPACITY);
            default -> false;
        };
    }

    private static void name(ResourcePath target, ObjectMeta meta, List<Cause> causes) {
        Names.Rule rule = rule(target);
        if (!meta.generateName().isEmpty()) {
            for (String m : rule.check(meta.generateName(), true)) {
                causes.add(FieldErrors.invalid("metadata.generateName", meta.generateName(), m));
            }
        }
        if (meta.name().isEmpty()) {
            if (meta.generateName().isEmpty()) {
                causes.add(FieldErrors.required("metadata.name", "name or generateName is required"));
            }
            return;
        }
        for (String m : rule.check(meta.name(), false)) {
            causes.add(FieldErrors.invalid("metadata.name", meta.name(), m));
        }
    }

    private static Names.Rule rule(ResourcePath target) {
        if (target.group().isEmpty() && target.resource().equals("namespaces")) {
            return Names.LABEL_NAME;
        }
        if (target.group().isEmpty() && target.resource().equals("services")) {
            return Names.DNS1035_NAME;
        }
        if (target.group().equals("rbac.authorization.k8s.io") && RBAC.contains(target.resource())) {
            return Names.PATH_SEGMENT_NAME;
        }
        return Names.SUBDOMAIN_NAME;
    }

    private static void labels(ObjectMeta meta, List<Cause> causes) {
        for (Map.Entry<String, String> l : meta.labels()) {
            for (String m : Names.qualifiedName(l.getKey())) {
                causes.add(FieldErrors.invalid("metadata.labels", l.getKey(), m));
            }
            for (String m : Names.labelValue(l.getValue())) {
                causes.add(FieldErrors.invalid("metadata.labels", l.getValue(), m));
            }
        }
    }

    private static void annotations(ObjectMeta meta, List<Cause> causes) {
        long bytes = 0;
        for (Map.Entry<String, String> a : meta.annotations()) {
            for (String m : Names.qualifiedName(a.getKey().toLowerCase(Locale.ROOT))) {
                causes.add(FieldErrors.invalid("metadata.annotations", a.getKey(), m));
            }
            bytes += a.getKey().getBytes(StandardCharsets.UTF_8).length
                    + a.getValue().getBytes(StandardCharsets.UTF_8).length;
        }
        if (bytes > ANNOTATIONS_MAX_BYTES) {
            causes.add(FieldErrors.tooLong("metadata.annotations", ANNOTATIONS_MAX_BYTES));
        }
    }
}
