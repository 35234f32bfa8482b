package io.hotsched.embedded;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The store's failures as kube-apiserver words them: a missing object is answered with nothing by
 * the store, and its conflicts name the kind ({@code Pod 'x' already exists}, {@code on Pod "x"})
 * where kube-apiserver names the resource ({@code pods "x" already exists}) and says
 * {@code AlreadyExists} or {@code Conflict}. Clients match on these (kubectl prints them, client-go
 * tests the reason).
 */
final class StoreAnswers {

    private static final Pattern EXISTS = Pattern.compile("\\S+ '(.*)' already exists");
    private static final Pattern MODIFIED =
            Pattern.compile("Operation cannot be fulfilled on \\S+ \"(.*)\": the object has been modified.*");

    private StoreAnswers() {}

    static MockResponse asKubeApiserver(MockResponse answer, RecordedRequest request) {
        if (answer == null || (answer.code() != 404 && answer.code() != 409)) {
            return answer;
        }
        boolean empty = answer.getBody() == null || answer.getBody().size() == 0;
        String[] target = target(request);
        if (answer.code() == 404) {
            if (!empty) {
                return answer;
            }
            return StatusJson.failure(
                    404,
                    "NotFound",
                    target[1] == null
                            ? "the server could not find the requested resource"
                            : target[0] + " \"" + target[1] + "\" not found");
        }
        if (empty || answer.getHeaders().header("Content-Type") != null) {
            // ours (binding conflicts) already carry their Status and type
            return answer;
        }
        String message = message(new String(answer.getBody().getBytes(), StandardCharsets.UTF_8));
        Matcher exists = EXISTS.matcher(message);
        if (exists.matches()) {
            return StatusJson.failure(409, "AlreadyExists", target[0] + " \"" + exists.group(1) + "\" already exists");
        }
        Matcher modified = MODIFIED.matcher(message);
        if (modified.matches()) {
            return StatusJson.failure(
                    409,
                    "Conflict",
                    "Operation cannot be fulfilled on " + target[0] + " \"" + modified.group(1)
                            + "\": the object has been modified; please apply your changes to the latest version and"
                            + " try again");
        }
        return answer;
    }

    /** The resource and (when the path names one) the object a request is about. */
    private static String[] target(RecordedRequest request) {
        String path = request.getPath();
        String p = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        String[] parts = p.split("/");
        // /api/v1/RES, /api/v1/namespaces/NS/RES, /apis/G/V/RES ...: a collection has an odd count
        // of segments after the version
        int first = parts.length > 1 && parts[1].equals("api") ? 3 : 4;
        int segments = parts.length - first;
        if (segments <= 0) {
            return new String[] {"", null};
        }
        String last = parts[parts.length - 1];
        if (request.method() == HttpMethod.POST && segments % 2 == 1) {
            return new String[] {last, null};
        }
        if ((last.equals("status") || last.equals("binding") || last.equals("scale")) && segments >= 3) {
            return new String[] {parts[parts.length - 3], parts[parts.length - 2]};
        }
        return segments % 2 == 0 ? new String[] {parts[parts.length - 2], last} : new String[] {last, null};
    }

    private static String message(String statusBody) {
        int i = statusBody.indexOf("\"message\":\"");
        if (i < 0) {
            return "";
        }
        int start = i + "\"message\":\"".length();
        StringBuilder b = new StringBuilder();
        for (int j = start; j < statusBody.length(); j++) {
            char c = statusBody.charAt(j);
            if (c == '\\' && j + 1 < statusBody.length()) {
                b.append(statusBody.charAt(++j));
            } else if (c == '"') {
                break;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
