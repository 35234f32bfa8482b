package io.hotsched.embedded;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A list's {@code continue} token, in kube-apiserver's form (unpadded base64url of
 * {@code {"v":"meta.k8s.io/v1","rv":R,"start":"ns/name\u0000"}}): the version the first page was
 * read at, and the key the next page starts from. {@code rv} -1 continues at the current version
 * (the token of a 410 for a version too old, to list the rest inconsistently).
 */
record ContinueToken(long resourceVersion, String start) {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    String encode() {
        String json = "{\"v\":\"meta.k8s.io/v1\",\"rv\":" + resourceVersion + ",\"start\":"
                + JSON.writeValueAsString(start) + "}";
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    /** The token {@code value} holds; a 400 worded as kube-apiserver's when it is not one. */
    static ContinueToken decode(String value) throws ListParams.Bad {
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            throw invalid("illegal base64 data");
        }
        JsonNode t;
        try {
            t = JSON.readTree(new String(bytes, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            throw invalid("not a JSON object");
        }
        if (!"meta.k8s.io/v1".equals(t.path("v").asText(""))) {
            throw invalid("server does not recognize this encoded version");
        }
        long rv = t.path("rv").asLong(0);
        if (rv == 0) {
            throw invalid("incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
        }
        String start = t.path("start").asText("");
        if (start.isEmpty()) {
            throw invalid("encoded start key empty (version meta.k8s.io/v1)");
        }
        return new ContinueToken(rv, start);
    }

    private static ListParams.Bad invalid(String why) {
        return new ListParams.Bad("invalid continue token: continue key is not valid: " + why);
    }
}
