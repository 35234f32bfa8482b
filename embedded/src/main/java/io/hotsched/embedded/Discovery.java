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

    /** One served resource: plural, kind, namespaced, short names. */
    record Res(String name, String kind, boolean namespaced, String... shortNames) {}

    /** The Kubernetes release this server answers as. */
    static final String VERSION = "v1.32.0-hotsched";

    static final Map<String, List<Res>> GROUPS = new LinkedHashMap<>();

    static {
        GROUPS.put(
                "v1",
                List.of(
                        new Res("pods", "Pod", true, "po"),
                        new Res("pods/binding", "Binding", true),
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
                        new Res("services", "Service", true, "svc")));
        GROUPS.put("coordination.k8s.io/v1", List.of(new Res("leases", "Lease", true)));
        GROUPS.put("policy/v1", List.of(new Res("poddisruptionbudgets", "PodDisruptionBudget", true, "pdb")));
        GROUPS.put("scheduling.k8s.io/v1", List.of(new Res("priorityclasses", "PriorityClass", false, "pc")));
        GROUPS.put(
                "storage.k8s.io/v1",
                List.of(
                        new Res("storageclasses", "StorageClass", false, "sc"),
                        new Res("csinodes", "CSINode", false),
                        new Res("csidrivers", "CSIDriver", false),
                        new Res("csistoragecapacities", "CSIStorageCapacity", true),
                        new Res("volumeattachments", "VolumeAttachment", false)));
        GROUPS.put(
                "resource.k8s.io/v1",
                List.of(
                        new Res("deviceclasses", "DeviceClass", false),
                        new Res("resourceclaims", "ResourceClaim", true),
                        new Res("resourceclaims/status", "ResourceClaim", true),
                        new Res("resourceclaimtemplates", "ResourceClaimTemplate", true),
                        new Res("resourceslices", "ResourceSlice", false)));
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

    /** The document for {@code path}, or null when it is not a discovery path. */
    static String document(String path) {
        String p = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        if (p.endsWith("/") && p.length() > 1) {
            p = p.substring(0, p.length() - 1);
        }
        if (p.equals("/version")) {
            return "{\"major\":\"1\",\"minor\":\"32\",\"gitVersion\":\"" + VERSION + "\",\"platform\":\"linux/amd64\"}";
        }
        if (p.equals("/api")) {
            return "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],\"serverAddressByClientCIDRs\":[{\"clientCIDR\":\"0.0.0.0/0\","
                    + "\"serverAddress\":\"127.0.0.1\"}]}";
        }
        if (p.equals("/api/v1")) {
            return resourceList("v1");
        }
        if (p.equals("/apis")) {
            StringBuilder b = new StringBuilder("{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[");
            boolean first = true;
            for (String gv : GROUPS.keySet()) {
                if (!gv.contains("/")) {
                    continue;
                }
                String group = gv.substring(0, gv.indexOf('/'));
                String version = gv.substring(gv.indexOf('/') + 1);
                b.append(first ? "" : ",")
                        .append("{\"name\":\"")
                        .append(group)
                        .append("\",\"versions\":[{\"groupVersion\":\"")
                        .append(gv)
                        .append("\",\"version\":\"")
                        .append(version)
                        .append("\"}],\"preferredVersion\":{\"groupVersion\":\"")
                        .append(gv)
                        .append("\",\"version\":\"")
                        .append(version)
                        .append("\"}}");
                first = false;
            }
            return b.append("]}").toString();
        }
        if (p.startsWith("/apis/")) {
            String gv = p.substring("/apis/".length());
            if (GROUPS.containsKey(gv) && gv.contains("/")) {
                return resourceList(gv);
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

        /** The kind served as {@code resource} ({@code pods}, {@code pods/status}) here, or null. */
        String kindOf(String resource) {
            for (Res r : GROUPS.getOrDefault(groupVersion, List.of())) {
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
        String kind = api.kindOf(rest.size() > 2 ? rest.get(0) + "/" + rest.get(2) : rest.get(0));
        return kind == null ? null : new String[] {api.groupVersion(), kind};
    }

    private static String resourceList(String gv) {
        StringBuilder b = new StringBuilder("{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\",\"groupVersion\":\"")
                .append(gv)
                .append("\",\"resources\":[");
        boolean first = true;
        for (Res r : GROUPS.get(gv)) {
            b.append(first ? "" : ",")
                    .append("{\"name\":\"")
                    .append(r.name())
                    .append("\",\"singularName\":\"\",\"namespaced\":")
                    .append(r.namespaced())
                    .append(",\"kind\":\"")
                    .append(r.kind())
                    .append(r.name().endsWith("/scale") ? "\",\"group\":\"autoscaling\",\"version\":\"v1" : "")
                    .append("\",\"verbs\":[")
                    .append(
                            r.name().contains("/")
                                    ? "\"get\",\"create\",\"update\",\"patch\""
                                    : "\"create\",\"delete\",\"get\",\"list\",\"patch\",\"update\",\"watch\"")
                    .append("]");
            if (r.shortNames().length > 0) {
                b.append(",\"shortNames\":[\"")
                        .append(String.join("\",\"", r.shortNames()))
                        .append("\"]");
            }
            b.append("}");
            first = false;
        }
        return b.append("]}").toString();
    }
}
