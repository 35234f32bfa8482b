package io.hotsched.embedded;

import java.time.Instant;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The objects of a watch kubectl prints ({@code kubectl get -w} asks for Tables): each a Table of
 * one row, the column definitions in the first event only, as kube-apiserver sends them (kubectl
 * keeps the last columns it was given).
 */
final class TableEvents {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final java.util.function.Function<JsonNode, ObjectNode> table;
    private boolean headed;

    /** @param path the watch's path, which names the collection */
    TableEvents(String path) {
        this(object -> Tables.of(path, object, Instant.now()));
    }

    /** @param table the Table of one object */
    TableEvents(java.util.function.Function<JsonNode, ObjectNode> table) {
        this.table = table;
    }

    synchronized String row(JsonNode object) {
        ObjectNode t = table.apply(object);
        if (headed) {
            t.putArray("columnDefinitions");
        }
        headed = true;
        return JSON.writeValueAsString(t);
    }
}
