package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * events.k8s.io/v1 as a view of the core v1 events, as kube-apiserver serves both from one store:
 * a request for events.k8s.io events is answered by the same request for core events, its body,
 * patch, field selector and answer (objects, lists, watch events) converted as upstream converts
 * them. The renamed fields are all top-level: {@code involvedObject} is {@code regarding},
 * {@code message} {@code note}, {@code reportingComponent} {@code reportingController}, and
 * {@code source}, {@code firstTimestamp}, {@code lastTimestamp} and {@code count} are the
 * {@code deprecated} ones. So an event the scheduler writes through either API is read, listed and
 * watched through both, and one store holds it.
 */
final class EventsApi {

    private static final String PREFIX = "/apis/events.k8s.io/v1/";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Core name, events.k8s.io name. */
    private static final List<String[]> RENAMED = List.of(
            new String[] {"involvedObject", "regarding"},
            new String[] {"message", "note"},
            new String[] {"reportingComponent", "reportingController"},
            new String[] {"source", "deprecatedSource"},
            new String[] {"firstTimestamp", "deprecatedFirstTimestamp"},
            new String[] {"lastTimestamp", "deprecatedLastTimestamp"},
            new String[] {"count", "deprecatedCount"});

    private EventsApi() {}

    /** Whether {@code path} is for events.k8s.io events (a collection, an event, a watch). */
    static boolean isFor(String path) {
        if (!path.startsWith(PREFIX)) {
            return false;
        }
        List<String> rest = Discovery.ApiPath.of(path).rest();
        if (rest.size() > 2 && rest.get(0).equals("namespaces")) {
            rest = rest.subList(2, rest.size());
        }
        return !rest.isEmpty() && rest.get(0).equals("events") && rest.size() <= 2;
    }

    /** The answer to an events.k8s.io {@code request}, by {@code core} answering its core v1 form. */
    static MockResponse answer(RecordedRequest request, Function<RecordedRequest, MockResponse> core) {
        String path = "/api/v1/" + request.getPath().substring(PREFIX.length());
        int q = path.indexOf('?');
        if (q >= 0) {
            path = path.substring(0, q) + query(path.substring(q));
        }
        Buffer body = request.getBody();
        if (body != null && body.size() > 0) {
            body = new Buffer(JSON.writeValueAsBytes(toCoreBody(JSON.readTree(body.getBytes()))));
        }
        MockResponse answer = core.apply(
                new RecordedRequest(request.getHttpVersion(), request.method(), path, request.getHeaders(), body));
        return converted(answer);
    }

    /** A query with events.k8s.io field names ({@code regarding.name=p}) in core's. */
    private static String query(String query) {
        String out = query;
        for (String[] pair : RENAMED) {
            out = out.replace("fieldSelector=" + pair[1], "fieldSelector=" + pair[0])
                    .replace("%2C" + pair[1], "%2C" + pair[0])
                    .replace("%2c" + pair[1], "%2c" + pair[0])
                    .replace("," + pair[1], "," + pair[0]);
        }
        return out;
    }

    /** A body for events.k8s.io (an event, or a merge, strategic or JSON patch of one) for core. */
    private static JsonNode toCoreBody(JsonNode body) {
        if (body instanceof ArrayNode patch) {
            for (JsonNode op : patch) {
                for (String field : new String[] {"path", "from"}) {
                    if (op.path(field).isString() && op instanceof ObjectNode o) {
                        o.put(field, corePointer(op.path(field).asText()));
                    }
                }
            }
            return patch;
        }
        if (!(body instanceof ObjectNode object)) {
            return body;
        }
        if (object.has("apiVersion")) {
            object.put("apiVersion", "v1");
        }
        return renamed(object, 1);
    }

    private static String corePointer(String pointer) {
        for (String[] pair : RENAMED) {
            if (pointer.equals("/" + pair[1]) || pointer.startsWith("/" + pair[1] + "/")) {
                return "/" + pair[0] + pointer.substring(pair[1].length() + 1);
            }
        }
        return pointer;
    }

    private static MockResponse converted(MockResponse answer) {
        Watch watch = Watch.carried(answer);
        if (watch != null) {
            watch.converting(EventsApi::frame);
            return answer;
        }
        JsonNode body = JsonBody.of(answer);
        return body != null && convertible(body) ? answer.setBody(JSON.writeValueAsString(toEventsApi(body))) : answer;
    }

    /** Whether {@code body} is a core event or a list of them. */
    private static boolean convertible(JsonNode body) {
        String kind = body.path("kind").asText();
        return kind.equals("Event")
                || (body.path("items").isArray() && (kind.equals("List") || kind.equals("EventList")));
    }

    /**
     * A core event or event list as events.k8s.io has it, converted in place; anything else (a
     * Status, a Table) as it is.
     */
    static JsonNode toEventsApi(JsonNode body) {
        if (!(body instanceof ObjectNode object)) {
            return body;
        }
        String kind = object.path("kind").asText();
        if (kind.equals("Event")) {
            return renamed(object.put("apiVersion", "events.k8s.io/v1"), 0);
        }
        if (object.path("items").isArray() && (kind.equals("List") || kind.equals("EventList"))) {
            object.put("apiVersion", "events.k8s.io/v1").put("kind", "EventList");
            object.path("items").forEach(EventsApi::toEventsApi);
            return object;
        }
        return body;
    }

    /** An events.k8s.io event read as a core one (for printing). */
    static ObjectNode toCore(JsonNode event) {
        return renamed(((ObjectNode) event.deepCopy()).put("apiVersion", "v1"), 1);
    }

    private static ObjectNode renamed(ObjectNode object, int from) {
        for (String[] pair : RENAMED) {
            JsonNode v = object.remove(pair[from]);
            if (v != null) {
                object.set(pair[1 - from], v);
            }
        }
        return object;
    }

    /** A watch event whose object is a core event, as events.k8s.io sends it; any other frame as it is. */
    private static String frame(String text) {
        try {
            JsonNode frame = JSON.readTree(text);
            if (frame instanceof ObjectNode o && o.has("object")) {
                o.set("object", toEventsApi(o.get("object")));
                return JSON.writeValueAsString(o);
            }
        } catch (RuntimeException e) {
            // not a watch event: as it is
        }
        return text;
    }
}
