package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The JSON body of a request or an answer, or null when it has none or it is not JSON. */
final class JsonBody {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private JsonBody() {}

    static JsonNode of(MockResponse answer) {
        return answer == null ? null : of(answer.getBody());
    }

    static JsonNode of(RecordedRequest request) {
        return of(request.getBody());
    }

    private static JsonNode of(Buffer body) {
        try {
            return body == null || body.size() == 0 ? null : JSON.readTree(body.getBytes());
        } catch (RuntimeException e) {
            return null;
        }
    }
}
