package io.hotsched.embedded;

import java.util.List;

/**
 * What an API path names, for any kind, built-in or custom: {@code /api/v1/namespaces/N/pods/P},
 * {@code /apis/G/V/R/NAME/status}, a collection. {@code name} and {@code subresource} are null when
 * the path names none.
 */
record ResourcePath(String groupVersion, String namespace, String resource, String name, String subresource) {

    /** The path split, or null when it is not under {@code /api} or {@code /apis}. */
    static ResourcePath of(String path) {
        Discovery.ApiPath api = Discovery.ApiPath.of(path);
        if (api == null || api.rest().isEmpty()) {
            return null;
        }
        List<String> rest = api.rest();
        String namespace = null;
        if (rest.get(0).equals("namespaces") && rest.size() >= 3 && !isNamespaceSubresource(rest.get(2))) {
            namespace = rest.get(1);
            rest = rest.subList(2, rest.size());
        }
        if (rest.size() > 3) {
            return null;
        }
        return new ResourcePath(
                api.groupVersion(),
                namespace,
                rest.get(0),
                rest.size() > 1 ? rest.get(1) : null,
                rest.size() > 2 ? rest.get(2) : null);
    }

    private static boolean isNamespaceSubresource(String segment) {
        return segment.equals("status") || segment.equals("finalize");
    }

    /** A write of the object itself (not of a subresource, not of a collection). */
    boolean isObject() {
        return name != null && subresource == null;
    }

    /** The API group ({@code ""} for the core group). */
    String group() {
        int slash = groupVersion.indexOf('/');
        return slash < 0 ? "" : groupVersion.substring(0, slash);
    }

    /** The collection the object is in: {@code /api/v1/namespaces/N/pods}. */
    String collection() {
        String root = groupVersion.contains("/") ? "/apis/" : "/api/";
        return root + groupVersion + (namespace == null ? "" : "/namespaces/" + namespace) + "/" + resource;
    }
}
