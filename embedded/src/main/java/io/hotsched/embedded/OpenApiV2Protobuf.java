package io.hotsched.embedded;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAPI v2 document in the protobuf form client-go asks for ({@code openapi_v2.Document} of
 * gnostic's {@code OpenAPIv2.proto}; its field numbers are the wire format). kubectl 1.32 reads it
 * to validate a {@code kind: List} manifest's items itself, and accepts no other form. What Swagger
 * 2.0 cannot say is left out as upstream's v2 leaves it out: {@code anyOf}, {@code oneOf},
 * {@code not}, {@code nullable}; a schema that keeps unknown fields or is an int-or-string has no
 * type (any value). The document has definitions and no paths, so kubectl finds no patch types in
 * it and computes strategic merge patches from its own types, as it does without the document.
 */
final class OpenApiV2Protobuf {

    /** What kube-apiserver answers with (kubectl asks with {@code @v1.0}, the older spelling). */
    static final String MEDIA_TYPE = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

    private static final String ASKED = "application/com.github.proto-openapi.spec.v2";

    private OpenApiV2Protobuf() {}

    /** Whether a request for {@code path} with {@code accept} asks first for the v2 document in protobuf. */
    static boolean wanted(String path, String accept) {
        String p = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        return p.equals("/openapi/v2")
                && accept != null
                && accept.split(",")[0].trim().toLowerCase(Locale.ROOT).startsWith(ASKED);
    }

    /** The protobuf form of a Swagger 2.0 document (its info and definitions). */
    static byte[] encode(JsonNode v2) {
        Message doc = new Message();
        doc.string(1, v2.path("swagger").asText("2.0"));
        doc.message(
                2,
                new Message()
                        .string(1, v2.path("info").path("title").asText(""))
                        .string(2, v2.path("info").path("version").asText("")));
        doc.message(8, new Message());
        Message definitions = new Message();
        for (Map.Entry<String, JsonNode> e : v2.path("definitions").properties()) {
            definitions.message(1, named(e.getKey(), schema(e.getValue())));
        }
        doc.message(9, definitions);
        return doc.bytes().toByteArray();
    }

    private static Message named(String name, Message value) {
        return new Message().string(1, name).message(2, value);
    }

    /** A {@code Schema} message (fields 1 to 31 of {@code OpenAPIv2.proto}). */
    private static Message schema(JsonNode s) {
        Message m = new Message();
        JsonNode described = s.path("allOf");
        if (described.isArray() && described.size() == 1 && described.get(0).has("$ref") && !s.has("properties")) {
            // v3's described reference is v2's $ref with a description beside it
            m.string(1, described.get(0).path("$ref").asText());
        }
        boolean any = s.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)
                || s.path("x-kubernetes-int-or-string").asBoolean(false);
        m.string(1, s.path("$ref").asText(""));
        m.string(2, s.path("format").asText(""));
        m.string(3, s.path("title").asText(""));
        m.string(4, s.path("description").asText(""));
        if (s.has("default")) {
            m.message(5, yaml(s.get("default")));
        }
        m.number(6, s.path("multipleOf"));
        m.number(7, s.path("maximum"));
        m.bool(8, s.path("exclusiveMaximum"));
        m.number(9, s.path("minimum"));
        m.bool(10, s.path("exclusiveMinimum"));
        m.integer(11, s.path("maxLength"));
        m.integer(12, s.path("minLength"));
        m.string(13, s.path("pattern").asText(""));
        m.integer(14, s.path("maxItems"));
        m.integer(15, s.path("minItems"));
        m.bool(16, s.path("uniqueItems"));
        m.integer(17, s.path("maxProperties"));
        m.integer(18, s.path("minProperties"));
        s.path("required").forEach(r -> m.string(19, r.asText()));
        s.path("enum").forEach(v -> m.message(20, yaml(v)));
        if (!any) {
            JsonNode additional = s.path("additionalProperties");
            if (additional.isObject()) {
                m.message(21, new Message().message(1, schema(additional)));
            } else if (additional.isBoolean()) {
                m.message(21, new Message().boolField(2, additional.asBoolean()));
            }
            if (s.path("type").isString()) {
                m.message(22, new Message().string(1, s.path("type").asText()));
            }
            if (s.path("items").isObject()) {
                m.message(23, new Message().message(1, schema(s.get("items"))));
            }
            if (s.path("properties").isObject()) {
                Message properties = new Message();
                for (Map.Entry<String, JsonNode> p : s.path("properties").properties()) {
                    properties.message(1, named(p.getKey(), schema(p.getValue())));
                }
                m.message(25, properties);
            }
        }
        if (!(described.isArray() && described.size() == 1)) {
            s.path("allOf").forEach(a -> m.message(24, schema(a)));
        }
        m.bool(27, s.path("readOnly"));
        if (s.has("example")) {
            m.message(30, yaml(s.get("example")));
        }
        for (Map.Entry<String, JsonNode> e : s.properties()) {
            if (e.getKey().startsWith("x-")) {
                m.message(31, new Message().string(1, e.getKey()).message(2, yaml(e.getValue())));
            }
        }
        return m;
    }

    /** An {@code Any} holding a value as YAML (JSON is YAML). */
    private static Message yaml(JsonNode value) {
        return new Message().string(2, value.toString());
    }

    /** One protobuf message being written, fields in the order they are added. */
    private static final class Message {
        private final ByteString.Output out = ByteString.newOutput();
        private final CodedOutputStream coded = CodedOutputStream.newInstance(out);

        Message string(int field, String value) {
            if (!value.isEmpty()) {
                write(() -> coded.writeString(field, value));
            }
            return this;
        }

        Message message(int field, Message value) {
            ByteString bytes = value.bytes();
            write(() -> coded.writeBytes(field, bytes));
            return this;
        }

        Message boolField(int field, boolean value) {
            write(() -> coded.writeBool(field, value));
            return this;
        }

        void bool(int field, JsonNode value) {
            if (value.isBoolean() && value.asBoolean()) {
                boolField(field, true);
            }
        }

        void number(int field, JsonNode value) {
            if (value.isNumber()) {
                write(() -> coded.writeDouble(field, value.asDouble()));
            }
        }

        void integer(int field, JsonNode value) {
            if (value.isNumber()) {
                write(() -> coded.writeInt64(field, value.asLong()));
            }
        }

        ByteString bytes() {
            write(coded::flush);
            return out.toByteString();
        }

        private interface Write {
            void run() throws IOException;
        }

        private static void write(Write w) {
            try {
                w.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
