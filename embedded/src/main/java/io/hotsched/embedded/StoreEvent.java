package io.hotsched.embedded;

import io.fabric8.mockwebserver.crud.AttributeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * One write to the store as watches and versioned lists see it: the object's key and JSON before
 * (none for a create) and after (none for a deletion), at the resource version of the write. The
 * parsed forms are made on first use and kept, so however many watches with field selectors or
 * Tables see the event, each state is parsed once; watches without either never parse it.
 */
final class StoreEvent {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    final long resourceVersion;
    final AttributeSet oldKey;
    final String oldJson;
    final AttributeSet newKey;
    final String newJson;

    private JsonNode oldObject;
    private JsonNode newObject;
    private String deleted;

    StoreEvent(long resourceVersion, AttributeSet oldKey, String oldJson, AttributeSet newKey, String newJson) {
        this.resourceVersion = resourceVersion;
        this.oldKey = oldJson == null ? null : oldKey;
        this.oldJson = oldJson;
        this.newKey = newJson == null ? null : newKey;
        this.newJson = newJson;
    }

    synchronized JsonNode oldObject() {
        if (oldObject == null && oldJson != null) {
            oldObject = JSON.readTree(oldJson);
        }
        return oldObject;
    }

    synchronized JsonNode newObject() {
        if (newObject == null && newJson != null) {
            newObject = JSON.readTree(newJson);
        }
        return newObject;
    }

    /**
     * The state before, with this event's resource version: what a DELETED event carries, for a
     * deletion as for an object that stopped matching a watch's selector (as kube-apiserver's
     * watch cache sends it, so the client's last seen version is the event's).
     */
    synchronized String deletedJson() {
        if (deleted == null && oldJson != null) {
            ObjectNode copy = (ObjectNode) oldObject().deepCopy();
            copy.withObject("metadata").put("resourceVersion", String.valueOf(resourceVersion));
            deleted = JSON.writeValueAsString(copy);
        }
        return deleted;
    }
}
