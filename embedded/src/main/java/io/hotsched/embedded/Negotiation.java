package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Content negotiation as kube-apiserver does it, for what this server speaks: it answers in JSON
 * (and the OpenAPI v2 document in protobuf, {@link OpenApiV2Protobuf}), and reads JSON, YAML and protobuf bodies (protobuf through {@link ProtobufBodies}), turning
 * them into JSON for the store. A client that accepts nothing it can answer in gets a 406, a body
 * in another format a 415, each with kube-apiserver's Status; an answer never goes out without the
 * type it is in (client-go decodes an untyped answer with its own preferred type, protobuf for
 * kubectl).
 */
final class Negotiation {

    static final String JSON = "application/json";

    /** The request types this server reads, as kube-apiserver lists them in a 415. */
    private static final String READ = "application/json, application/yaml, " + ProtobufBodies.MEDIA_TYPE;

    private static final ObjectMapper JSON_MAPPER = JsonMapper.builder().build();

    private Negotiation() {}

    /** The 406 for a request whose Accept names no type this server answers in; null when it can be answered. */
    static MockResponse notAcceptable(RecordedRequest request) {
        String accept = request.getHeader("Accept");
        if (accept == null
                || accept.isBlank()
                || acceptsJson(accept)
                || OpenApiV2Protobuf.wanted(request.getPath(), accept)) {
            return null;
        }
        return StatusJson.failure(406, "NotAcceptable", "only the following media types are accepted: " + JSON);
    }

    private static boolean acceptsJson(String accept) {
        for (String clause : accept.split(",")) {
            String type = mediaType(clause);
            if (type.equals(JSON) || type.equals("application/*") || type.equals("*/*") || type.equals("*")) {
                return true;
            }
        }
        return false;
    }

    /** A request body this server cannot read, with the answer to give. */
    static final class Unsupported extends Exception {
        final transient MockResponse answer;

        Unsupported(MockResponse answer) {
            super(answer.toString(), null, false, false);
            this.answer = answer;
        }
    }

    /** {@code request} with its body as JSON (itself when it already is, or has none). */
    static RecordedRequest readable(RecordedRequest request) throws Unsupported {
        String contentType = request.getHeader("Content-Type");
        if (contentType == null
                || request.getBody() == null
                || request.getBody().size() == 0
                || request.method() == io.fabric8.mockwebserver.dsl.HttpMethod.PATCH) {
            // a PATCH's types are the patch types, which Patches reads (and refuses in its own words)
            return request;
        }
        String type = mediaType(contentType);
        if (type.equals(JSON) || type.endsWith("+json") || type.equals("application/apply-patch+yaml")) {
            return request;
        }
        String json;
        if (type.equals(ProtobufBodies.MEDIA_TYPE)) {
            try {
                json = ProtobufBodies.toJson(request.getBody().getBytes());
            } catch (ProtobufBodies.Unreadable e) {
                throw new Unsupported(StatusJson.failure(415, "UnsupportedMediaType", e.getMessage()));
            }
        } else if (type.equals("application/yaml")) {
            try {
                Object tree = new Load(LoadSettings.builder().build())
                        .loadFromString(new String(request.getBody().getBytes(), StandardCharsets.UTF_8));
                json = JSON_MAPPER.writeValueAsString(tree);
            } catch (RuntimeException e) {
                throw new Unsupported(
                        StatusJson.failure(400, "BadRequest", "the YAML body could not be read: " + e.getMessage()));
            }
        } else {
            throw new Unsupported(StatusJson.failure(
                    415,
                    "UnsupportedMediaType",
                    "the body of the request was in an unknown format - accepted media types include: " + READ));
        }
        return new RecordedRequest(
                request.getHttpVersion(),
                request.method(),
                request.getPath(),
                request.getHeaders().newBuilder().set("Content-Type", JSON).build(),
                new Buffer(json.getBytes(StandardCharsets.UTF_8)));
    }

    /** {@code answer}, saying it is JSON when it has a body and does not say what it is. */
    static MockResponse typed(MockResponse answer) {
        if (answer != null
                && answer.getWebSocketListener() == null
                && answer.getBody() != null
                && answer.getBody().size() > 0
                && answer.getHeaders().header("Content-Type") == null) {
            answer.setHeader("Content-Type", JSON);
        }
        return answer;
    }

    private static String mediaType(String value) {
        int semicolon = value.indexOf(';');
        return (semicolon < 0 ? value : value.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }
}
