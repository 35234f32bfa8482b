package io.hotsched.conformance.runner;

import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.QueueingHint;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Upstream's tests of queueing hint functions ("queueingHint" cases): the plugin's registered
 * event for the case's resource and action, and its hint for the pod and the old and new objects,
 * judged as the scheduling queue judges it (no hint, or a hint that throws, is Queue).
 */
final class HintCases {

    private HintCases() {}

    static void run(Plugin plugin, JsonNode in, JsonNode want) {
        Check.isTrue(plugin instanceof EnqueueExtensions, plugin.name() + " registers no events");
        String resource = in.path("event").path("resource").asText();
        ActionType action = ActionType.valueOf(in.path("event").path("action").asText());
        ClusterEventWithHint registered = null;
        for (ClusterEventWithHint e : ((EnqueueExtensions) plugin).eventsToRegister()) {
            if (e.event().matches(resource, action)) {
                registered = e;
                break;
            }
        }
        Check.notNull(registered, plugin.name() + " registers no " + resource + " " + action + " event");
        PodInfo pod = PodInfo.of(ConformanceRunner.pod(in.path("pod")));
        Object oldObject = value(in.path("oldObject"), resource);
        Object newObject = value(in.path("newObject"), resource);
        QueueingHint got;
        try {
            got = registered.hint() == null
                    ? QueueingHint.QUEUE
                    : registered.hint().hint(pod, oldObject, newObject);
        } catch (RuntimeException e) {
            got = QueueingHint.QUEUE;
        }
        String expected = want.path("hint").asText();
        Check.equal(expected, got == QueueingHint.QUEUE ? "Queue" : "QueueSkip", "queueing hint");
    }

    /** The object of the event: null, a plain value (upstream's "object of the wrong type" cases) or one of the resource's kind. */
    private static Object value(JsonNode n, String resource) {
        if (n.isMissingNode() || n.isNull()) {
            return null;
        }
        if (!n.isObject()) {
            return n.asText();
        }
        ObjectNode o = ((ObjectNode) n).deepCopy();
        if (!o.has("kind")) {
            o.put("kind", resource);
        }
        return ConformanceRunner.object(o);
    }
}
