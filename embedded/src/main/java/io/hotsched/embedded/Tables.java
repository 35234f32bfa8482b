package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.MockResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Server-side printing, as kubectl asks for it first ({@code Accept: application/json;as=Table}):
 * pods, nodes and Deployments as {@code meta.k8s.io/v1 Table}s with the columns a real API server gives them
 * (the wide ones at priority 1), so {@code kubectl get pods -o wide} shows status and node.
 */
final class Tables {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private Tables() {}

    /** Whether a request's Accept header asks for a Table. */
    static boolean wanted(String accept) {
        return accept != null && accept.contains("as=Table");
    }

    /** Whether the collection of {@code path} is printed here (others are answered as lists). */
    static boolean served(String path) {
        String c = collection(path);
        return c.equals("/api/v1/pods")
                || c.equals("/api/v1/nodes")
                || c.equals("/apis/apps/v1/deployments")
                || c.equals("/api/v1/events")
                || c.equals("/apis/events.k8s.io/v1/events");
    }

    /** The Table of a list or object of the collection of {@code path} (one {@link #served} names). */
    static ObjectNode of(String path, JsonNode listOrObject, Instant now) {
        String c = collection(path);
        return c.endsWith("/pods")
                ? pods(listOrObject, now)
                : c.endsWith("/deployments")
                        ? deployments(listOrObject, now)
                        : c.endsWith("/events") ? events(listOrObject, now) : nodes(listOrObject, now);
    }

    /** The JSON answer {@code r} (a list or one object) to a GET of {@code path} as a Table, when it is one. */
    static MockResponse answer(MockResponse r, String path) {
        if (r.code() != 200) {
            return r;
        }
        JsonNode body;
        try {
            body = JSON.readTree(new String(r.getBody().getBytes(), StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            return r;
        }
        return StatusJson.json(JSON.writeValueAsString(of(path, body, Instant.now())))
                .setHeader("Content-Type", "application/json;as=Table;v=v1;g=meta.k8s.io");
    }

    /**
     * The collection a path is in, without namespace and name: {@code /api/v1/namespaces/ns/pods/p}
     * and {@code /api/v1/pods?watch=true} are both {@code /api/v1/pods}.
     */
    static String collection(String path) {
        String p = path.split("\\?", 2)[0];
        String[] s = p.replaceFirst("^/+", "").split("/");
        int base = s[0].equals("api") ? 2 : 3;
        if (s.length <= base) {
            return p;
        }
        int i = base;
        if (s[i].equals("namespaces") && s.length > i + 2) {
            i += 2;
        }
        return "/" + String.join("/", java.util.Arrays.copyOfRange(s, 0, base)) + "/" + s[i];
    }

    /** A Table of the pods of a pod list or of one pod, as of {@code now}. */
    static ObjectNode pods(JsonNode listOrPod, Instant now) {
        ObjectNode t = table(
                listOrPod,
                5,
                "Name",
                "Ready",
                "Status",
                "Restarts",
                "Age",
                "IP",
                "Node",
                "Nominated Node",
                "Readiness Gates");
        for (JsonNode pod : items(listOrPod)) {
            JsonNode status = pod.path("status");
            int containers = pod.path("spec").path("containers").size();
            int ready = 0;
            int restarts = 0;
            if (status.path("containerStatuses").isArray()
                    && !status.path("containerStatuses").isEmpty()) {
                for (JsonNode cs : status.path("containerStatuses")) {
                    ready += cs.path("ready").asBoolean(false) ? 1 : 0;
                    restarts += cs.path("restartCount").asInt(0);
                }
            } else if (condition(status, "Ready")) {
                // the kubelet stand-in reports the pod Ready without container statuses
                ready = containers;
            }
            String phase = status.path("phase").asText("Pending");
            String reason = status.path("reason").asText("");
            String shown = !pod.path("metadata").path("deletionTimestamp").isMissingNode()
                    ? "Terminating"
                    : !reason.isEmpty() ? reason : phase;
            row(
                    t,
                    pod,
                    text(pod.path("metadata").path("name").asText()),
                    text(ready + "/" + containers),
                    text(shown),
                    text(String.valueOf(restarts)),
                    text(age(pod, now)),
                    text(or(status.path("podIP").asText(""), "<none>")),
                    text(or(pod.path("spec").path("nodeName").asText(""), "<none>")),
                    text(or(status.path("nominatedNodeName").asText(""), "<none>")),
                    text("<none>"));
        }
        return t;
    }

    /** A Table of the nodes of a node list or of one node, as of {@code now}. */
    static ObjectNode nodes(JsonNode listOrNode, Instant now) {
        ObjectNode t = table(
                listOrNode,
                5,
                "Name",
                "Status",
                "Roles",
                "Age",
                "Version",
                "Internal-IP",
                "OS-Image",
                "Kernel-Version",
                "Container-Runtime");
        for (JsonNode node : items(listOrNode)) {
            JsonNode status = node.path("status");
            boolean readyKnown = false;
            String ready = "Unknown";
            for (JsonNode c : status.path("conditions")) {
                if ("Ready".equals(c.path("type").asText())) {
                    readyKnown = true;
                    ready = "True".equals(c.path("status").asText()) ? "Ready" : "NotReady";
                }
            }
            // the demo's nodes carry no conditions: a node without a Ready condition is shown Ready
            String shown = readyKnown ? ready : "Ready";
            if (node.path("spec").path("unschedulable").asBoolean(false)) {
                shown += ",SchedulingDisabled";
            }
            List<String> roles = new ArrayList<>();
            node.path("metadata").path("labels").propertyNames().forEach(l -> {
                if (l.startsWith("node-role.kubernetes.io/")) {
                    roles.add(l.substring("node-role.kubernetes.io/".length()));
                }
            });
            String ip = "<none>";
            for (JsonNode a : status.path("addresses")) {
                if ("InternalIP".equals(a.path("type").asText())) {
                    ip = a.path("address").asText();
                }
            }
            JsonNode info = status.path("nodeInfo");
            row(
                    t,
                    node,
                    text(node.path("metadata").path("name").asText()),
                    text(shown),
                    text(roles.isEmpty() ? "<none>" : String.join(",", roles)),
                    text(age(node, now)),
                    text(or(info.path("kubeletVersion").asText(""), "<none>")),
                    text(ip),
                    text(or(info.path("osImage").asText(""), "<unknown>")),
                    text(or(info.path("kernelVersion").asText(""), "<unknown>")),
                    text(or(info.path("containerRuntimeVersion").asText(""), "<unknown>")));
        }
        return t;
    }

    /** A Table of the Deployments of a list or of one Deployment, as of {@code now}, as kubectl prints them. */
    static ObjectNode deployments(JsonNode listOrDeployment, Instant now) {
        ObjectNode t = table(
                listOrDeployment,
                5,
                "Name",
                "Ready",
                "Up-to-date",
                "Available",
                "Age",
                "Containers",
                "Images",
                "Selector");
        for (JsonNode d : items(listOrDeployment)) {
            JsonNode spec = d.path("spec");
            JsonNode status = d.path("status");
            List<String> names = new ArrayList<>();
            List<String> images = new ArrayList<>();
            for (JsonNode c : spec.path("template").path("spec").path("containers")) {
                names.add(c.path("name").asText());
                images.add(c.path("image").asText());
            }
            List<String> selector = new ArrayList<>();
            spec.path("selector")
                    .path("matchLabels")
                    .properties()
                    .forEach(e -> selector.add(e.getKey() + "=" + e.getValue().asText()));
            row(
                    t,
                    d,
                    text(d.path("metadata").path("name").asText()),
                    text(status.path("readyReplicas").asInt(0) + "/"
                            + spec.path("replicas").asInt(1)),
                    text(String.valueOf(status.path("updatedReplicas").asInt(0))),
                    text(String.valueOf(status.path("availableReplicas").asInt(0))),
                    text(age(d, now)),
                    text(String.join(",", names)),
                    text(String.join(",", images)),
                    text(selector.isEmpty() ? "<none>" : String.join(",", selector)));
        }
        return t;
    }

    /**
     * A Table of the events of a list or of one event (core v1; events.k8s.io ones are listed as those),
     * with kubectl's columns: LAST SEEN, TYPE, REASON, OBJECT, MESSAGE, and with {@code -o wide}
     * SUBOBJECT, SOURCE, FIRST SEEN, COUNT, NAME.
     */
    static ObjectNode events(JsonNode listOrEvent, Instant now) {
        String[] names = {
            "Last Seen", "Type", "Reason", "Object", "Subobject", "Source", "Message", "First Seen", "Count", "Name"
        };
        ObjectNode t = table(listOrEvent, names.length, names);
        ArrayNode cols = (ArrayNode) t.get("columnDefinitions");
        for (int i : new int[] {4, 5, 7, 8, 9}) {
            ((ObjectNode) cols.get(i)).put("priority", 1);
        }
        ((ObjectNode) cols.get(0)).put("format", "");
        ((ObjectNode) cols.get(9)).put("format", "name");
        for (JsonNode item : items(listOrEvent)) {
            JsonNode e = item;
            String first = e.hasNonNull("firstTimestamp")
                    ? since(e.path("firstTimestamp"), now)
                    : since(e.path("eventTime"), now);
            String last = e.hasNonNull("lastTimestamp") ? since(e.path("lastTimestamp"), now) : first;
            long count = e.path("count").asLong(0);
            if (e.path("series").isObject()) {
                last = since(e.path("series").path("lastObservedTime"), now);
                count = e.path("series").path("count").asLong(0);
            } else if (count == 0) {
                // a single event of the newer API carries no count
                count = 1;
            }
            JsonNode about = e.path("involvedObject");
            String kind = about.path("kind").asText("").toLowerCase(java.util.Locale.ROOT);
            String name = about.path("name").asText("");
            String component = or(
                    e.path("source").path("component").asText(""),
                    e.path("reportingComponent").asText(""));
            String host = or(
                    e.path("source").path("host").asText(""),
                    e.path("reportingInstance").asText(""));
            row(
                    t,
                    e,
                    text(last),
                    text(e.path("type").asText("")),
                    text(e.path("reason").asText("")),
                    text(name.isEmpty() ? kind : kind + "/" + name),
                    text(about.path("fieldPath").asText("")),
                    text(component.isEmpty() || host.isEmpty() ? component : component + ", " + host),
                    text(e.path("message").asText("").strip()),
                    text(first),
                    F.numberNode(count),
                    text(e.path("metadata").path("name").asText("")));
        }
        return t;
    }

    /** A timestamp's age as kubectl prints it; {@code <unknown>} when there is none. */
    private static String since(JsonNode timestamp, Instant now) {
        String s = timestamp.asText("");
        if (s.isEmpty()) {
            return "<unknown>";
        }
        try {
            return humanDuration(Duration.between(Instant.parse(s), now));
        } catch (DateTimeParseException e) {
            return "<unknown>";
        }
    }

    /**
     * An empty Table of string columns, the first the object's name; the columns from index {@code wideFrom}
     * on are priority 1 (shown by {@code -o wide} only).
     */
    private static ObjectNode table(JsonNode source, int wideFrom, String... columns) {
        ObjectNode t = F.objectNode();
        t.put("kind", "Table");
        t.put("apiVersion", "meta.k8s.io/v1");
        ObjectNode meta = t.putObject("metadata");
        // a list's version and, for a page of a chunked list, where the next page starts
        for (String field : new String[] {"resourceVersion", "continue", "remainingItemCount"}) {
            JsonNode v = source.path("metadata").path(field);
            if (!v.isMissingNode() && !v.isNull() && !v.asText().isEmpty()) {
                meta.set(field, v);
            }
        }
        ArrayNode cols = t.putArray("columnDefinitions");
        for (int i = 0; i < columns.length; i++) {
            ObjectNode c = cols.addObject();
            c.put("name", columns[i]);
            c.put("type", "string");
            c.put("format", i == 0 ? "name" : "");
            c.put("description", "");
            c.put("priority", i < wideFrom ? 0 : 1);
        }
        t.putArray("rows");
        return t;
    }

    static List<JsonNode> items(JsonNode listOrObject) {
        List<JsonNode> out = new ArrayList<>();
        if (listOrObject.path("items").isArray()) {
            listOrObject.path("items").forEach(out::add);
        } else {
            out.add(listOrObject);
        }
        return out;
    }

    static void row(ObjectNode table, JsonNode object, JsonNode... cells) {
        ObjectNode r = ((ArrayNode) table.get("rows")).addObject();
        ArrayNode cs = r.putArray("cells");
        for (JsonNode c : cells) {
            cs.add(c);
        }
        // kubectl reads namespace (for -A), labels (--show-labels) and name from here
        ObjectNode partial = r.putObject("object");
        partial.put("kind", "PartialObjectMetadata");
        partial.put("apiVersion", "meta.k8s.io/v1");
        partial.set("metadata", object.path("metadata").deepCopy());
    }

    private static JsonNode text(String s) {
        return F.stringNode(s);
    }

    private static String or(String s, String otherwise) {
        return s == null || s.isEmpty() ? otherwise : s;
    }

    private static boolean condition(JsonNode status, String type) {
        for (JsonNode c : status.path("conditions")) {
            if (type.equals(c.path("type").asText())
                    && "True".equals(c.path("status").asText())) {
                return true;
            }
        }
        return false;
    }

    static String age(JsonNode object, Instant now) {
        return since(object.path("metadata").path("creationTimestamp"), now);
    }

    /** kubectl's way of writing an age: "45s", "3m20s", "12m", "5h30m", "3d4h", "400d", "2y10d". */
    static String humanDuration(Duration d) {
        long s = d.getSeconds();
        if (s < -1) {
            return "<invalid>";
        }
        if (s < 0) {
            return "0s";
        }
        if (s < 60 * 2) {
            return s + "s";
        }
        long m = s / 60;
        if (m < 10) {
            return s % 60 == 0 ? m + "m" : m + "m" + (s % 60) + "s";
        }
        if (m < 60 * 3) {
            return m + "m";
        }
        long h = m / 60;
        if (h < 8) {
            return m % 60 == 0 ? h + "h" : h + "h" + (m % 60) + "m";
        }
        if (h < 48) {
            return h + "h";
        }
        if (h < 24 * 8) {
            return h % 24 == 0 ? (h / 24) + "d" : (h / 24) + "d" + (h % 24) + "h";
        }
        if (h < 24 * 365 * 2) {
            return (h / 24) + "d";
        }
        long days = h / 24;
        if (days < 365 * 8) {
            return days % 365 == 0 ? (days / 365) + "y" : (days / 365) + "y" + (days % 365) + "d";
        }
        return (days / 365) + "y";
    }
}
