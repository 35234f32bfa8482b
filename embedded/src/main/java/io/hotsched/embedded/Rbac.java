package io.hotsched.embedded;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * RBAC as kube-apiserver's authorizer decides it, from the Roles, ClusterRoles and their bindings
 * the server stores: a request is allowed when a rule of a role bound to the user (by name), one of
 * its groups, or its ServiceAccount allows it; nothing denies. Members of {@code system:masters} may
 * do anything. Not evaluated: aggregated ClusterRoles ({@code aggregationRule}; their rules are
 * what the stored object lists).
 */
final class Rbac {

    private static final String GROUP = "/apis/rbac.authorization.k8s.io/v1/";

    /** Who asks. */
    record User(String name, List<String> groups) {}

    /**
     * What is asked: a resource request (namespace empty for a cluster-wide one) or, with
     * {@code path} set, a non-resource URL.
     */
    record Request(
            String verb,
            String apiGroup,
            String resource,
            String subresource,
            String name,
            String namespace,
            String path) {

        static Request nonResource(String verb, String path) {
            return new Request(verb, "", "", "", "", "", path);
        }

        boolean isNonResource() {
            return path != null && !path.isEmpty();
        }
    }

    /** The decision and, when allowed, the binding that allowed it (kube-apiserver's reason). */
    record Decision(boolean allowed, String reason) {}

    private final Function<String, JsonNode> list;

    /** @param list reads a stored list (the items of the path, or null) */
    Rbac(Function<String, JsonNode> list) {
        this.list = list;
    }

    Decision decide(User user, Request request) {
        if (user.groups().contains("system:masters")) {
            return new Decision(true, "");
        }
        for (JsonNode binding : items(GROUP + "clusterrolebindings")) {
            if (bindsUser(binding, user, "") && rulesAllow(role(binding.path("roleRef"), ""), request, true)) {
                return new Decision(true, allowedBy("ClusterRoleBinding", binding, user));
            }
        }
        if (request.isNonResource() || request.namespace().isEmpty()) {
            return new Decision(false, "");
        }
        for (JsonNode binding : items(GROUP + "namespaces/" + request.namespace() + "/rolebindings")) {
            if (bindsUser(binding, user, request.namespace())
                    && rulesAllow(role(binding.path("roleRef"), request.namespace()), request, false)) {
                return new Decision(true, allowedBy("RoleBinding", binding, user));
            }
        }
        return new Decision(false, "");
    }

    private static String allowedBy(String kind, JsonNode binding, User user) {
        JsonNode ref = binding.path("roleRef");
        String ns = binding.path("metadata").path("namespace").asText("");
        return "RBAC: allowed by " + kind + " \""
                + binding.path("metadata").path("name").asText() + "\""
                + (ns.isEmpty() ? "" : " of namespace \"" + ns + "\"") + " of "
                + ref.path("kind").asText() + " \""
                + ref.path("name").asText() + "\" to User \"" + user.name() + "\"";
    }

    private List<JsonNode> items(String path) {
        JsonNode l = list.apply(path);
        List<JsonNode> out = new ArrayList<>();
        if (l != null) {
            l.path("items").forEach(out::add);
        }
        return out;
    }

    private JsonNode role(JsonNode ref, String namespace) {
        String kind = ref.path("kind").asText();
        String name = ref.path("name").asText();
        String path =
                kind.equals("ClusterRole") ? GROUP + "clusterroles" : GROUP + "namespaces/" + namespace + "/roles";
        for (JsonNode r : items(path)) {
            if (r.path("metadata").path("name").asText().equals(name)) {
                return r;
            }
        }
        return null;
    }

    private static boolean bindsUser(JsonNode binding, User user, String bindingNamespace) {
        for (JsonNode s : binding.path("subjects")) {
            String kind = s.path("kind").asText();
            String name = s.path("name").asText();
            boolean matches = switch (kind) {
                case "User" -> name.equals(user.name());
                case "Group" -> user.groups().contains(name);
                case "ServiceAccount" -> {
                    String ns = s.path("namespace").asText(bindingNamespace);
                    yield user.name().equals("system:serviceaccount:" + ns + ":" + name);
                }
                default -> false;
            };
            if (matches) {
                return true;
            }
        }
        return false;
    }

    private static boolean rulesAllow(JsonNode role, Request request, boolean clusterWide) {
        if (role == null) {
            return false;
        }
        for (JsonNode rule : role.path("rules")) {
            if (!has(rule.path("verbs"), request.verb())) {
                continue;
            }
            if (request.isNonResource()) {
                if (clusterWide && matchesUrl(rule.path("nonResourceURLs"), request.path())) {
                    return true;
                }
                continue;
            }
            String resource = request.subresource().isEmpty()
                    ? request.resource()
                    : request.resource() + "/" + request.subresource();
            if (has(rule.path("apiGroups"), request.apiGroup())
                    && has(rule.path("resources"), resource)
                    && (rule.path("resourceNames").isEmpty() || contains(rule.path("resourceNames"), request.name()))) {
                return true;
            }
        }
        return false;
    }

    /** {@code value} is listed, or {@code *} is. */
    private static boolean has(JsonNode list, String value) {
        return contains(list, "*") || contains(list, value);
    }

    private static boolean contains(JsonNode list, String value) {
        for (JsonNode v : list) {
            if (v.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchesUrl(JsonNode urls, String path) {
        for (JsonNode u : urls) {
            String url = u.asText();
            if (url.equals("*")
                    || url.equals(path)
                    || url.endsWith("*") && path.startsWith(url.substring(0, url.length() - 1))) {
                return true;
            }
        }
        return false;
    }
}
