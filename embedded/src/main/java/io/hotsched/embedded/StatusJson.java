package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.MockResponse;

/** API-server style {@code Status} answers. */
final class StatusJson {

    private StatusJson() {}

    static MockResponse failure(int code, String reason, String message) {
        return new MockResponse()
                .setResponseCode(code)
                .setHeader("Content-Type", "application/json")
                .setBody(status(code, reason, message));
    }

    /** A failure {@code Status} object. */
    static String status(int code, String reason, String message) {
        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
                + quote(message) + ",\"reason\":\"" + reason + "\",\"code\":" + code + "}";
    }

    /**
     * {@code answer}, with the Status kube-apiserver gives when it is a 404 without a body (the
     * store answers a missing object with nothing): {@code pods "x" not found}.
     */
    static MockResponse explained(MockResponse answer, String path) {
        if (answer == null
                || answer.code() != 404
                || (answer.getBody() != null && answer.getBody().size() > 0)) {
            return answer;
        }
        String p = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        String[] parts = p.split("/");
        String message = "the server could not find the requested resource";
        if (parts.length >= 5) {
            String name = parts[parts.length - 1];
            String resource = parts[parts.length - 2];
            // pods/NAME/status names the pod, not a resource called NAME
            if ((name.equals("status") || name.equals("binding"))) {
                resource = parts[parts.length - 3];
                name = parts[parts.length - 2];
            }
            message = resource + " \"" + name + "\" not found";
        }
        return failure(404, "NotFound", message);
    }

    static MockResponse created() {
        return new MockResponse()
                .setResponseCode(201)
                .setHeader("Content-Type", "application/json")
                .setBody(
                        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Success\",\"code\":201}");
    }

    static MockResponse json(String body) {
        return new MockResponse()
                .setResponseCode(200)
                .setHeader("Content-Type", "application/json")
                .setBody(body);
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
