package io.hotsched.embedded;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The discovery documents a real kubectl reads before it does anything ({@code /version},
 * {@code /api}, {@code /api/v1}, {@code /apis}, {@code /apis/GROUP/VERSION}), for the kinds the
 * embedded server serves.
 */
final class Discovery {

    /**
     * One served resource: plural (or {@code plural/subresource}), kind, namespaced, singular name
     * (empty: kubectl derives it from the kind), categories ({@code kubectl get all}), short names.
     */
    record Res(
            String name,
            String kind,
            boolean namespaced,
            String singular,
            List<String> categories,
            String... shortNames) {
        Res(String name, String kind, boolean namespaced, String... shortNames) {
            this(name, kind, namespaced, "", List.of(), shortNames);
        }
    }

    /**
     * The Kubernetes release this server answers as: the newest whose protobuf descriptors are on
     * Maven Central ({@code client-java-proto} 27). The build tag is semver build metadata, which
     * version comparisons ignore (a {@code -suffix} would make it a pre-release, older than
     * v1.36.0 to client-go's feature checks).
     */
    static final String VERSION = "v1.36.0+hotsched";

    static final String MINOR = "36";

    static final Map<String, List<Res>> GROUPS = new LinkedHashMap<>();

    static {
        GROUPS.put(
                "v1",
                List.of(
                        new Res("pods", "Pod", true, "po"),
                        new Res("pods/binding", "Binding", true),
                        new Res("pods/eviction", "Eviction", true),
                        new Res("pods/status", "Pod", true),
                        new Res("bindings", "Binding", true),
                        new Res("nodes", "Node", false, "no"),
                        new Res("nodes/status", "Node", false),
                        new Res("namespaces", "Namespace", false, "ns"),
                        new Res("events", "Event", true, "ev"),
                        new Res("configmaps", "ConfigMap", true, "cm"),
                        new Res("persistentvolumeclaims", "PersistentVolumeClaim", true, "pvc"),
                        new Res("persistentvolumeclaims/status", "PersistentVolumeClaim", true),
                        new Res("persistentvolumes", "PersistentVolume", false, "pv"),
                        new Res("persistentvolumes/status", "PersistentVolume", false),
                        new Res("services", "Service", true, "svc"),
                        new Res("serviceaccounts", "ServiceAccount", true, "sa"),
                        new Res("serviceaccounts/token", "TokenRequest", true)));
        GROUPS.put(
                "rbac.authorization.k8s.io/v1",
                List.of(
                        new Res("clusterroles", "ClusterRole", false),
                        new Res("clusterrolebindings", "ClusterRoleBinding", false),
                        new Res("roles", "Role", true),
                        new Res("rolebindings", "RoleBinding", true)));
        GROUPS.put("authentication.k8s.io/v1", List.of(new Res("tokenreviews", "TokenReview", false)));
        GROUPS.put("authorization.k8s.io/v1", List.of(new Res("subjectaccessreviews", "SubjectAccessReview", false)));
        GROUPS.put("coordination.k8s.io/v1", List.of(new Res("leases", "Lease", true)));
        GROUPS.put(
                "policy/v1",
                List.of(
                        new Res("poddisruptionbudgets", "PodDisruptionBudget", true, "pdb"),
                        new Res("poddisruptionbudgets/status", "PodDisruptionBudget", true)));
        GROUPS.put("scheduling.k8s.io/v1", List.of(new Res("priorityclasses", "PriorityClass", false, "pc")));
        GROUPS.put(
                "storage.k8s.io/v1",
                List.of(
                        new Res("storageclasses", "StorageClass", false, "sc"),
                        new Res("csidrivers", "CSIDriver", false),
                        new Res("csinodes", "CSINode", false),
                        new Res("csistoragecapacities", "CSIStorageCapacity", true),
                        new Res("volumeattachments", "VolumeAttachment", false),
                        new Res("volumeattachments/status", "VolumeAttachment", false),
                        new Res("volumeattributesclasses", "VolumeAttributesClass", false, "vac")));
        GROUPS.put(
                "resource.k8s.io/v1",
                List.of(
                        new Res("deviceclasses", "DeviceClass", false),
                        new Res("resourceclaims", "ResourceClaim", true),
                        new Res("resourceclaims/status", "ResourceClaim", true),
                        new Res("resourceclaimtemplates", "ResourceClaimTemplate", true),
                        new Res("resourceslices", "ResourceSlice", false)));
        GROUPS.put(
                "apiextensions.k8s.io/v1",
                List.of(
                        new Res("customresourcedefinitions", "CustomResourceDefinition", false, "crd", "crds"),
                        new Res("customresourcedefinitions/status", "CustomResourceDefinition", false)));
        GROUPS.put("events.k8s.io/v1", List.of(new Res("events", "Event", true, "ev")));
        GROUPS.put(
                "apps/v1",
                List.of(
                        new Res("deployments", "Deployment", true, "deploy"),
                        new Res("deployments/status", "Deployment", true),
                        new Res("deployments/scale", "Scale", true),
                        new Res("replicasets", "ReplicaSet", true, "rs"),
                        new Res("replicasets/status", "ReplicaSet", true),
                        new Res("replicasets/scale", "Scale", true),
                        new Res("statefulsets", "StatefulSet", true, "sts"),
                        new Res("statefulsets/status", "StatefulSet", true),
                        new Res("statefulsets/scale", "Scale", true),
                        new Res("daemonsets", "DaemonSet", true, "ds"),
                        new Res("daemonsets/status", "DaemonSet", true)));
        GROUPS.put("batch/v1", List.of(new Res("jobs", "Job", true), new Res("jobs/status", "Job", true)));
        GROUPS.put("slo.koordinator.sh/v1alpha1", List.of(new Res("nodemetrics", "NodeMetric", false)));
        GROUPS.put("scheduling.koordinator.sh/v1alpha1", List.of(new Res("devices", "Device", false)));
    }

    private Discovery() {}

    /** The document for {@code path} of the built-in kinds, or null when it is not a discovery path. */
    static String document(String path) {
        return document(path, GROUPS);
    }

    /**
     * The document for {@code path} when {@code groups} (group-version to resources, the built-in
     * kinds and those of CustomResourceDefinitions) are served, or null when it is not a discovery
     * path.
     */
    static String document(String path, Map<String, List<Res>> groups) {
        String p = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        if (p.endsWith("/") && p.length() > 1) {
            p = p.substring(0, p.length() - 1);
        }
        if (p.equals("/version")) {
            return "{\"major\":\"1\",\"minor\":\"" + MINOR + "\",\"gitVersion\":\"" + VERSION
                    + "\",\"gitCommit\":\"\",\"gitTreeState\":\"clean\",\"buildDate\":\"\",\"goVersion\":\"\","
                    + "\"compiler\":\"gc\",\"platform\":\"linux/amd64\"}";
        }
        if (p.equals("/api")) {
            return "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],\"serverAddressByClientCIDRs\":[{\"clientCIDR\":\"0.0.0.0/0\","
                    + "\"serverAddress\":\"127.0.0.1\"}]}";
        }
        if (p.equals("/api/v1")) {
            return resourceList("v1", groups.get("v1"));
        }
        if (p.equals("/apis")) {
            return groupList(groups);
        }
        if (p.startsWith("/apis/")) {
            String gv = p.substring("/apis/".length());
            if (groups.containsKey(gv) && gv.contains("/")) {
                return resourceList(gv, groups.get(gv));
            }
        }
        return null;
    }

    /**
     * An API path split after its group-version: {@code /api/v1/namespaces/N/pods} is {@code v1}
     * and {@code [namespaces, N, pods]}; null for a path outside {@code /api} and {@code /apis}.
     */
    record ApiPath(String groupVersion, List<String> rest) {
        static ApiPath of(String path) {
            String p = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
            String[] parts = p.split("/");
            if (parts.length > 2 && parts[1].equals("api")) {
                return new ApiPath(parts[2], List.of(parts).subList(3, parts.length));
            }
            if (parts.length > 3 && parts[1].equals("apis")) {
                return new ApiPath(parts[2] + "/" + parts[3], List.of(parts).subList(4, parts.length));
            }
            return null;
        }

        /** The built-in kind served as {@code resource} ({@code pods}, {@code pods/status}) here, or null. */
        String kindOf(String resource) {
            return kindOf(resource, GROUPS);
        }

        /** The kind served as {@code resource} here when {@code groups} are served, or null. */
        String kindOf(String resource, Map<String, List<Res>> groups) {
            for (Res r : groups.getOrDefault(groupVersion, List.of())) {
                if (r.name().equals(resource)) {
                    return r.kind();
                }
            }
            return null;
        }
    }

    /**
     * The group-version and kind served at an object's path ({@code /api/v1/namespaces/N/pods/P},
     * {@code /apis/apps/v1/...}, a subresource of it other than scale), or null.
     */
    static String[] kindAt(String path) {
        return kindAt(path, GROUPS);
    }

    /** {@link #kindAt(String)} when {@code groups} are served. */
    static String[] kindAt(String path, Map<String, List<Res>> groups) {
        ApiPath api = ApiPath.of(path);
        if (api == null) {
            return null;
        }
        List<String> rest = api.rest();
        if (rest.size() > 2 && rest.get(0).equals("namespaces")) {
            rest = rest.subList(2, rest.size());
        }
        if (rest.isEmpty() || (rest.size() > 2 && rest.get(2).equals("scale"))) {
            return null;
        }
        String kind = api.kindOf(rest.size() > 2 ? rest.get(0) + "/" + rest.get(2) : rest.get(0), groups);
        return kind == null ? null : new String[] {api.groupVersion(), kind};
    }

    /**
     * The APIGroupList: one entry per group with its versions, the preferred (first) one as
     * kube-apiserver orders them ({@link #byPriority}).
     */
    private static String groupList(Map<String, List<Res>> groups) {
        Map<String, List<String>> versions = new LinkedHashMap<>();
        for (String gv : groups.keySet()) {
            int slash = gv.indexOf('/');
            if (slash > 0) {
                versions.computeIfAbsent(gv.substring(0, slash), g -> new java.util.ArrayList<>())
                        .add(gv.substring(slash + 1));
            }
        }
        StringBuilder b = new StringBuilder("{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[");
        boolean first = true;
        for (Map.Entry<String, List<String>> g : versions.entrySet()) {
            List<String> ordered =
                    g.getValue().stream().sorted(Discovery::byPriority).toList();
            b.append(first ? "" : ",").append("{\"name\":\"").append(g.getKey()).append("\",\"versions\":[");
            for (int i = 0; i < ordered.size(); i++) {
                b.append(i == 0 ? "" : ",").append(groupVersion(g.getKey(), ordered.get(i)));
            }
            b.append("],\"preferredVersion\":")
                    .append(groupVersion(g.getKey(), ordered.get(0)))
                    .append("}");
            first = false;
        }
        return b.append("]}").toString();
    }

    private static String groupVersion(String group, String version) {
        return "{\"groupVersion\":\"" + group + "/" + version + "\",\"version\":\"" + version + "\"}";
    }

    private static final java.util.regex.Pattern KUBE_VERSION =
            java.util.regex.Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?");

    /**
     * kube-apiserver's order of versions: GA before beta before alpha, higher numbers first within
     * each; versions not of that form last, alphabetically.
     */
    static int byPriority(String a, String b) {
        java.util.regex.Matcher x = KUBE_VERSION.matcher(a);
        java.util.regex.Matcher y = KUBE_VERSION.matcher(b);
        boolean kx = x.matches();
        boolean ky = y.matches();
        if (!kx || !ky) {
            return kx ? -1 : ky ? 1 : a.compareTo(b);
        }
        int level = Integer.compare(level(y.group(2)), level(x.group(2)));
        if (level != 0) {
            return level;
        }
        int major = Long.compare(Long.parseLong(y.group(1)), Long.parseLong(x.group(1)));
        if (major != 0 || x.group(3) == null) {
            return major;
        }
        return Long.compare(Long.parseLong(y.group(3)), Long.parseLong(x.group(3)));
    }

    private static int level(String stage) {
        return stage == null ? 2 : stage.equals("beta") ? 1 : 0;
    }

    private static String resourceList(String gv, List<Res> resources) {
        StringBuilder b = new StringBuilder("{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\",\"groupVersion\":\"")
                .append(gv)
                .append("\",\"resources\":[");
        boolean first = true;
        for (Res r : resources) {
            b.append(first ? "" : ",")
                    .append("{\"name\":\"")
                    .append(r.name())
                    .append("\",\"singularName\":")
                    .append(StatusJson.quote(r.singular()))
                    .append(",\"namespaced\":")
                    .append(r.namespaced())
                    .append(",\"kind\":\"")
                    .append(r.kind())
                    .append(r.name().endsWith("/scale") ? "\",\"group\":\"autoscaling\",\"version\":\"v1" : "")
                    // kubectl drain evicts only where discovery lists pods/eviction with its group
                    .append(r.name().endsWith("/eviction") ? "\",\"group\":\"policy\",\"version\":\"v1" : "")
                    .append("\",\"verbs\":[")
                    .append(
                            r.name().endsWith("/eviction") || r.name().endsWith("/binding")
                                    ? "\"create\""
                                    : r.name().contains("/")
                                            ? "\"get\",\"create\",\"update\",\"patch\""
                                            : "\"create\",\"delete\",\"get\",\"list\",\"patch\",\"update\",\"watch\"")
                    .append("]");
            if (r.shortNames().length > 0) {
                b.append(",\"shortNames\":[\"")
                        .append(String.join("\",\"", r.shortNames()))
                        .append("\"]");
            }
            if (!r.categories().isEmpty()) {
                b.append(",\"categories\":[\"")
                        .append(String.join("\",\"", r.categories()))
                        .append("\"]");
            }
            b.append("}");
            first = false;
        }
        return b.append("]}").toString();
    }
}
