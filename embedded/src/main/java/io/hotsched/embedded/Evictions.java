package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.MockResponse;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The eviction subresource ({@code POST pods/NAME/eviction}, what kubectl drain sends): the pod is
 * deleted as by a DELETE. PodDisruptionBudgets are not consulted (a real server answers 429 when
 * one would be broken).
 */
final class Evictions {

    static final Pattern EVICTION = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/eviction/?(\\?.*)?");

    private Evictions() {}

    /** The answer to an eviction, or null when {@code path} is not one. */
    static MockResponse evict(String path, Function<String, MockResponse> delete) {
        Matcher m = EVICTION.matcher(path);
        if (!m.matches()) {
            return null;
        }
        MockResponse deleted = delete.apply("/api/v1/namespaces/" + m.group(1) + "/pods/" + m.group(2));
        if (deleted.code() == 404) {
            return StatusJson.failure(404, "NotFound", "pods \"" + m.group(2) + "\" not found");
        }
        if (deleted.code() >= 300) {
            return deleted;
        }
        return StatusJson.created();
    }
}
