package io.hotsched.embedded;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a component that delegates authentication and authorization to the API server calls, as
 * kube-scheduler's secure port does: ServiceAccount tokens ({@code POST
 * serviceaccounts/NAME/token}, a TokenRequest), {@code tokenreviews} (a token this server issued,
 * for a ServiceAccount that still exists) and {@code subjectaccessreviews} (decided by {@link Rbac}
 * from the stored roles and bindings). Tokens are opaque and live as long as the server, not as
 * long as {@code expirationSeconds}.
 */
final class AccessReviews {

    private static final Pattern TOKEN_REQUEST =
            Pattern.compile("/api/v1/namespaces/([^/]+)/serviceaccounts/([^/?]+)/token/?(\\?.*)?");
    private static final String TOKEN_REVIEWS = "/apis/authentication.k8s.io/v1/tokenreviews";
    private static final String ACCESS_REVIEWS = "/apis/authorization.k8s.io/v1/subjectaccessreviews";
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /** The ServiceAccount a token was issued for. */
    private record Account(String namespace, String name, String uid) {
        String user() {
            return "system:serviceaccount:" + namespace + ":" + name;
        }
    }

    private final Map<String, Account> tokens = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final Function<String, JsonNode> get;
    private final Rbac rbac;

    /** @param get reads a stored object or list by path (null when there is none) */
    AccessReviews(Function<String, JsonNode> get) {
        this.get = get;
        this.rbac = new Rbac(get);
    }

    /** The answer to {@code request} when it is one of these APIs, else null. */
    MockResponse answer(RecordedRequest request, String path) {
        if (request.method() != HttpMethod.POST) {
            return null;
        }
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        Matcher token = TOKEN_REQUEST.matcher(path);
        if (token.matches()) {
            return issue(token.group(1), token.group(2), body(request));
        }
        if (bare.equals(TOKEN_REVIEWS) || bare.equals(TOKEN_REVIEWS + "/")) {
            return review(body(request));
        }
        if (bare.equals(ACCESS_REVIEWS) || bare.equals(ACCESS_REVIEWS + "/")) {
            return access(body(request));
        }
        return null;
    }

    /** The user a bearer token names, or null when this server did not issue it. */
    String userOf(String token) {
        Account a = token == null ? null : tokens.get(token);
        return a == null ? null : a.user();
    }

    private static ObjectNode body(RecordedRequest request) {
        try {
            JsonNode n = JSON.readTree(request.getUtf8Body());
            return n instanceof ObjectNode o ? o : JSON.createObjectNode();
        } catch (RuntimeException e) {
            return JSON.createObjectNode();
        }
    }

    private MockResponse issue(String namespace, String name, ObjectNode body) {
        JsonNode account = get.apply("/api/v1/namespaces/" + namespace + "/serviceaccounts/" + name);
        if (account == null) {
            return StatusJson.failure(404, "NotFound", "serviceaccounts \"" + name + "\" not found");
        }
        byte[] b = new byte[32];
        random.nextBytes(b);
        String token = "hotsched-sa." + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
        tokens.put(
                token,
                new Account(
                        namespace, name, account.path("metadata").path("uid").asText("")));
        long seconds = body.path("spec").path("expirationSeconds").asLong(3600);
        ObjectNode out = JSON.createObjectNode();
        out.put("kind", "TokenRequest");
        out.put("apiVersion", "authentication.k8s.io/v1");
        ObjectNode meta = out.putObject("metadata");
        meta.put("name", name);
        meta.put("namespace", namespace);
        ObjectNode spec = out.putObject("spec");
        spec.set(
                "audiences",
                body.path("spec").path("audiences").isArray()
                        ? body.path("spec").path("audiences")
                        : JSON.createArrayNode());
        spec.put("expirationSeconds", seconds);
        ObjectNode status = out.putObject("status");
        status.put("token", token);
        status.put(
                "expirationTimestamp",
                ZonedDateTime.now(ZoneOffset.UTC)
                        .plusSeconds(seconds)
                        .truncatedTo(ChronoUnit.SECONDS)
                        .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        return created(out);
    }

    private MockResponse review(ObjectNode body) {
        String token = body.path("spec").path("token").asText("");
        Account a = tokens.get(token);
        ObjectNode status = body.putObject("status");
        if (a != null && get.apply("/api/v1/namespaces/" + a.namespace() + "/serviceaccounts/" + a.name()) == null) {
            tokens.remove(token);
            status.put("authenticated", false);
            status.put("error", "service account " + a.namespace() + "/" + a.name() + " has been deleted");
        } else if (a == null) {
            status.put("authenticated", false);
            status.put("error", "invalid bearer token");
        } else {
            status.put("authenticated", true);
            ObjectNode user = status.putObject("user");
            user.put("username", a.user());
            user.put("uid", a.uid());
            ArrayNode groups = user.putArray("groups");
            groups.add("system:serviceaccounts");
            groups.add("system:serviceaccounts:" + a.namespace());
            groups.add("system:authenticated");
        }
        return created(withKind(body, "TokenReview", "authentication.k8s.io/v1"));
    }

    private MockResponse access(ObjectNode body) {
        JsonNode spec = body.path("spec");
        List<String> groups = new ArrayList<>();
        spec.path("groups").forEach(g -> groups.add(g.asText()));
        Rbac.User user = new Rbac.User(spec.path("user").asText(""), groups);
        JsonNode res = spec.path("resourceAttributes");
        JsonNode non = spec.path("nonResourceAttributes");
        Rbac.Request request = non.isObject()
                ? Rbac.Request.nonResource(
                        non.path("verb").asText(""), non.path("path").asText(""))
                : new Rbac.Request(
                        res.path("verb").asText(""),
                        res.path("group").asText(""),
                        res.path("resource").asText(""),
                        res.path("subresource").asText(""),
                        res.path("name").asText(""),
                        res.path("namespace").asText(""),
                        "");
        Rbac.Decision d = rbac.decide(user, request);
        ObjectNode status = body.putObject("status");
        status.put("allowed", d.allowed());
        if (!d.reason().isEmpty()) {
            status.put("reason", d.reason());
        }
        return created(withKind(body, "SubjectAccessReview", "authorization.k8s.io/v1"));
    }

    private static ObjectNode withKind(ObjectNode body, String kind, String apiVersion) {
        body.put("kind", kind);
        body.put("apiVersion", apiVersion);
        if (!body.has("metadata")) {
            body.putObject("metadata");
        }
        return body;
    }

    private static MockResponse created(ObjectNode body) {
        return new MockResponse()
                .setResponseCode(201)
                .setHeader("Content-Type", "application/json")
                .setBody(JSON.writeValueAsString(body));
    }
}
