package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.MockResponse;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The list and watch options of a request's query, as kube-apiserver reads them into its
 * {@code ListOptions}, with its validation of them: the same combinations are refused with the
 * same 422 {@code ListOptions.meta.k8s.io "" is invalid: ...}, and a value that is not a number or
 * a boolean gets a 400 naming the parameter.
 */
final class ListParams {

    static final String NOT_OLDER_THAN = "NotOlderThan";
    static final String EXACT = "Exact";

    final boolean watch;
    /** null when absent */
    final String resourceVersion;
    /** null when absent */
    final String resourceVersionMatch;
    /** null when absent */
    final Boolean sendInitialEvents;

    final boolean allowWatchBookmarks;
    /** 0 when absent */
    final long timeoutSeconds;
    /** 0 when absent: no limit */
    final long limit;
    /** null when absent */
    final String continueToken;

    final String labelSelector;
    final String fieldSelector;

    private ListParams(Map<String, String> q) throws Bad {
        watch = bool(q, "watch", false);
        resourceVersion = q.get("resourceVersion");
        resourceVersionMatch = emptyAsNull(q.get("resourceVersionMatch"));
        sendInitialEvents = q.containsKey("sendInitialEvents") ? bool(q, "sendInitialEvents", false) : null;
        allowWatchBookmarks = bool(q, "allowWatchBookmarks", false);
        timeoutSeconds = number(q, "timeoutSeconds");
        limit = number(q, "limit");
        continueToken = emptyAsNull(q.get("continue"));
        labelSelector = q.getOrDefault("labelSelector", "");
        fieldSelector = q.getOrDefault("fieldSelector", "");
    }

    /** A parameter whose value cannot be read, with kube-apiserver's 400. */
    static final class Bad extends Exception {
        final transient MockResponse answer;

        Bad(String message) {
            super(message, null, false, false);
            this.answer = StatusJson.failure(400, "BadRequest", message);
        }
    }

    static ListParams of(String path) throws Bad {
        return new ListParams(query(path));
    }

    /** Whether {@code path} asks for a watch ({@code watch=true}, or another true of Go's). */
    static boolean isWatch(String path) {
        int q = path.indexOf('?');
        if (q < 0 || !path.contains("watch=")) {
            return false;
        }
        for (String param : path.substring(q + 1).split("&")) {
            if (param.startsWith("watch=")) {
                return truth(param.substring("watch=".length())) == Boolean.TRUE;
            }
        }
        return false;
    }

    /** The resource version as a number: -1 when absent or empty, 0 for "0" (any). */
    long version() throws Bad {
        if (resourceVersion == null || resourceVersion.isEmpty()) {
            return -1;
        }
        try {
            long v = Long.parseLong(resourceVersion);
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new Bad("resourceVersion: Invalid value: \"" + resourceVersion + "\": must be a non-negative integer");
    }

    /** kube-apiserver's 422 for options it refuses, or null when they are valid. */
    MockResponse invalid() {
        List<String[]> errors = new ArrayList<>();
        String match = resourceVersionMatch;
        if (watch) {
            if (sendInitialEvents != null && !NOT_OLDER_THAN.equals(match)) {
                errors.add(forbidden("sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
            }
            if (match != null) {
                if (sendInitialEvents == null) {
                    errors.add(forbidden(
                            "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
                }
                if (!match.equals(NOT_OLDER_THAN)) {
                    errors.add(notSupported(match, "\"NotOlderThan\""));
                }
                if (continueToken != null) {
                    errors.add(forbidden("resourceVersionMatch is forbidden when continue is provided"));
                }
            }
        } else {
            if (match != null) {
                if (resourceVersion == null || resourceVersion.isEmpty()) {
                    errors.add(forbidden("resourceVersionMatch is forbidden unless resourceVersion is provided"));
                }
                if (continueToken != null) {
                    errors.add(forbidden("resourceVersionMatch is forbidden when continue is provided"));
                }
                if (!match.equals(EXACT) && !match.equals(NOT_OLDER_THAN)) {
                    errors.add(notSupported(match, "\"Exact\", \"NotOlderThan\", \"\""));
                }
                if (match.equals(EXACT) && "0".equals(resourceVersion)) {
                    errors.add(forbidden("resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""));
                }
            }
            if (sendInitialEvents != null) {
                errors.add(new String[] {
                    "sendInitialEvents", "FieldValueForbidden", "Forbidden: sendInitialEvents is forbidden for list"
                });
            }
        }
        return errors.isEmpty() ? null : invalid(errors);
    }

    /** kube-apiserver's 422 Invalid of ListOptions, one cause per error (field, reason, message). */
    private static MockResponse invalid(List<String[]> errors) {
        List<String> each = errors.stream().map(e -> e[0] + ": " + e[2]).toList();
        String message = "ListOptions.meta.k8s.io \"\" is invalid: "
                + (each.size() == 1 ? each.get(0) : "[" + String.join(", ", each) + "]");
        StringBuilder causes = new StringBuilder();
        for (String[] e : errors) {
            causes.append(causes.length() == 0 ? "" : ",")
                    .append("{\"reason\":\"")
                    .append(e[1])
                    .append("\",\"message\":")
                    .append(StatusJson.quote(e[2]))
                    .append(",\"field\":\"")
                    .append(e[0])
                    .append("\"}");
        }
        String body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
                + StatusJson.quote(message)
                + ",\"reason\":\"Invalid\",\"details\":{\"name\":\"\",\"group\":\"meta.k8s.io\",\"kind\":\"ListOptions\","
                + "\"causes\":[" + causes + "]},\"code\":422}";
        return new MockResponse()
                .setResponseCode(422)
                .setHeader("Content-Type", "application/json")
                .setBody(body);
    }

    private static String[] forbidden(String detail) {
        return new String[] {"resourceVersionMatch", "FieldValueForbidden", "Forbidden: " + detail};
    }

    private static String[] notSupported(String value, String supported) {
        return new String[] {
            "resourceVersionMatch",
            "FieldValueNotSupported",
            "Unsupported value: \"" + value + "\": supported values: " + supported
        };
    }

    private static Map<String, String> query(String path) {
        Map<String, String> q = new HashMap<>();
        int i = path.indexOf('?');
        if (i < 0) {
            return q;
        }
        for (String param : path.substring(i + 1).split("&")) {
            int eq = param.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? param : param.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(param.substring(eq + 1), StandardCharsets.UTF_8);
            q.putIfAbsent(name, value);
        }
        return q;
    }

    private static boolean bool(Map<String, String> q, String name, boolean otherwise) throws Bad {
        String v = q.get(name);
        if (v == null || v.isEmpty()) {
            return otherwise;
        }
        Boolean b = truth(v);
        if (b == null) {
            throw new Bad(name + ": Invalid value: \"" + v + "\": not a boolean");
        }
        return b;
    }

    /** Go's strconv.ParseBool, which kube-apiserver reads booleans with; null for anything else. */
    private static Boolean truth(String v) {
        return switch (v) {
            case "1", "t", "T", "true", "TRUE", "True" -> Boolean.TRUE;
            case "0", "f", "F", "false", "FALSE", "False" -> Boolean.FALSE;
            default -> null;
        };
    }

    private static long number(Map<String, String> q, String name) throws Bad {
        String v = q.get(name);
        if (v == null || v.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new Bad(name + ": Invalid value: \"" + v + "\": not an integer");
        }
    }

    private static String emptyAsNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
