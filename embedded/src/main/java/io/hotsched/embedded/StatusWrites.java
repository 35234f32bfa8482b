package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A PUT of a {@code status} subresource with kube-apiserver's optimistic concurrency: a body read
 * at a resourceVersion the object has moved on from is a 409 Conflict. The store checks the
 * version only on the main resource (for {@code /status} it compares the object with itself), so
 * two writers of one status (a controller and the eviction API, both of a budget's
 * {@code disruptionsAllowed}) would each overwrite the other unseen.
 */
final class StatusWrites {

    private static final Pattern STATUS = Pattern.compile("(/.+)/([^/?]+)/status/?(\\?.*)?");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Function<String, MockResponse> get;
    private final Function<RecordedRequest, MockResponse> store;
    private final Lock write;

    StatusWrites(Function<String, MockResponse> get, Function<RecordedRequest, MockResponse> store, Lock write) {
        this.get = get;
        this.store = store;
        this.write = write;
    }

    /** The answer to {@code put}, or null when it is not a PUT of a status with a resourceVersion. */
    MockResponse put(RecordedRequest put, String body) {
        Matcher m = STATUS.matcher(put.getPath());
        if (!m.matches()) {
            return null;
        }
        String version = version(body);
        if (version.isEmpty()) {
            return null;
        }
        String objectPath = m.group(1) + "/" + m.group(2);
        write.lock();
        try {
            MockResponse current = get.apply(objectPath);
            if (current.code() == 200) {
                String now = version(new String(current.getBody().getBytes(), StandardCharsets.UTF_8));
                if (!now.equals(version)) {
                    String resource = m.group(1).substring(m.group(1).lastIndexOf('/') + 1);
                    String[] segments = objectPath.split("/");
                    String group = segments[1].equals("apis") ? "." + segments[2] : "";
                    return StatusJson.failure(
                            409,
                            "Conflict",
                            "Operation cannot be fulfilled on " + resource + group + " \"" + m.group(2)
                                    + "\": the object has been modified; please apply your changes to the latest"
                                    + " version and try again");
                }
            }
            return store.apply(put);
        } finally {
            write.unlock();
        }
    }

    private static String version(String body) {
        try {
            JsonNode n = body == null || body.isEmpty() ? null : JSON.readTree(body);
            return n == null ? "" : n.path("metadata").path("resourceVersion").asText("");
        } catch (RuntimeException e) {
            return "";
        }
    }
}
