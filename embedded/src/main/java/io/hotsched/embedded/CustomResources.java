package io.hotsched.embedded;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.hotsched.embedded.CustomResourceDefinitions.Definition;
import io.hotsched.embedded.CustomResourceDefinitions.Version;
import io.hotsched.embedded.FieldErrors.Cause;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Requests for the kinds CustomResourceDefinitions serve, as kube-apiserver routes them: a kind
 * no definition serves (any more) is not found, nor is a cluster-scoped kind under a namespace, a
 * namespaced one written outside one, or a {@code status} or {@code scale} subresource its version
 * does not have; a custom resource is pruned, defaulted and validated by its version's schema
 * ({@link StructuralSchema}) before the store takes it, a definition is checked and completed by
 * {@link CrdAdmission}.
 */
final class CustomResources {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The request to go on with, or the answer that ends it. */
    record Outcome(RecordedRequest request, MockResponse answer) {}

    /** A request's custom kind: the definition and version serving it, and the path's parts. */
    record Target(Definition definition, Version version, String namespace, String name, String subresource) {}

    private final CustomResourceDefinitions crds;

    CustomResources(CustomResourceDefinitions crds) {
        this.crds = crds;
    }

    /** {@code request} as the custom kinds' rules let it go on, or their answer. */
    Outcome intercept(RecordedRequest request) {
        Discovery.ApiPath api = Discovery.ApiPath.of(request.getPath());
        if (api == null || !api.groupVersion().contains("/")) {
            return new Outcome(request, null);
        }
        boolean write = request.method() == HttpMethod.POST || request.method() == HttpMethod.PUT;
        if (CustomResourceDefinitions.isDefinitionPath(request.getPath())) {
            return write && !request.getPath().contains("/status")
                    ? admitDefinition(request)
                    : new Outcome(request, null);
        }
        String group = api.groupVersion().substring(0, api.groupVersion().indexOf('/'));
        Target target = target(request.getPath());
        if (target == null) {
            return new Outcome(request, notServed(group, api) ? notFound() : null);
        }
        boolean namespaced = api.rest().size() > 1 && api.rest().get(0).equals("namespaces");
        boolean subresourceServed = target.subresource() == null
                || (target.subresource().equals("status") && target.version().status())
                || (target.subresource().equals("scale") && target.version().scale() != null);
        boolean scoped = target.definition().namespaced()
                ? namespaced || (request.method() == HttpMethod.GET && target.name() == null)
                : !namespaced;
        if (!subresourceServed || !scoped) {
            return new Outcome(request, notFound());
        }
        return write && !"scale".equals(target.subresource())
                ? admitResource(request, target)
                : new Outcome(request, null);
    }

    /**
     * The custom kind a path is for ({@code /apis/G/V/[namespaces/NS/]PLURAL[/NAME[/SUB]]}), or null
     * when no definition serves it.
     */
    Target target(String path) {
        Discovery.ApiPath api = Discovery.ApiPath.of(path);
        if (api == null || !api.groupVersion().contains("/")) {
            return null;
        }
        List<String> rest = api.rest();
        String namespace = null;
        if (rest.size() > 2 && rest.get(0).equals("namespaces")) {
            namespace = rest.get(1);
            rest = rest.subList(2, rest.size());
        }
        if (rest.isEmpty() || rest.size() > 3) {
            return null;
        }
        String gv = api.groupVersion();
        Definition d = crds.served(gv.substring(0, gv.indexOf('/')), gv.substring(gv.indexOf('/') + 1), rest.get(0));
        if (d == null) {
            return null;
        }
        return new Target(
                d,
                d.version(gv.substring(gv.indexOf('/') + 1)),
                namespace,
                rest.size() > 1 ? rest.get(1) : null,
                rest.size() > 2 ? rest.get(2) : null);
    }

    /**
     * {@code answer} to a GET of custom resources as a Table of their printer columns
     * ({@link PrinterColumns}) when the request asks for one; otherwise itself.
     */
    MockResponse table(MockResponse answer, RecordedRequest request) {
        if (answer == null
                || answer.code() != 200
                || !Tables.wanted(request.getHeader("Accept"))
                || request.getPath().contains("watch=")) {
            return answer;
        }
        Target t = target(request.getPath());
        JsonNode body = t == null || t.subresource() != null ? null : JsonBody.of(answer);
        if (body == null || !body.isObject() || "Table".equals(body.path("kind").asText())) {
            return answer;
        }
        ObjectNode table = rows(request.getPath()).apply(body);
        return StatusJson.json(JSON.writeValueAsString(table))
                .setHeader("Content-Type", "application/json;as=Table;v=v1;g=meta.k8s.io");
    }

    /** The Table of one object of the custom kind {@code path} watches, or null when no definition serves it. */
    java.util.function.Function<JsonNode, ObjectNode> rows(String path) {
        Target t = target(path);
        if (t == null || t.subresource() != null) {
            return null;
        }
        List<CustomResourceDefinitions.Column> columns = t.version().columns();
        return object -> PrinterColumns.table(object, columns, java.time.Instant.now());
    }

    /** The custom resource a {@code .../scale} path is for, when its version has the subresource; else null. */
    ScaleSubresource.Scaled scaled(String path) {
        Target t = target(path);
        if (t == null
                || t.name() == null
                || !"scale".equals(t.subresource())
                || t.version().scale() == null) {
            return null;
        }
        String p = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        p = p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
        return new ScaleSubresource.Scaled(
                p.substring(0, p.length() - "/scale".length()),
                t.definition().resource(),
                t.name(),
                t.version().scale());
    }

    /**
     * Whether a request no definition serves is to be refused: one in a group a definition claims,
     * or in a third-party group (with a dot, not Kubernetes' own {@code *.k8s.io}) the built-in
     * table does not have; a built-in resource is served whatever definitions there are.
     */
    private boolean notServed(String group, Discovery.ApiPath api) {
        List<String> rest = api.rest();
        if (rest.size() > 2 && rest.get(0).equals("namespaces")) {
            rest = rest.subList(2, rest.size());
        }
        if (rest.isEmpty() ? crds.groups().containsKey(api.groupVersion()) : api.kindOf(rest.get(0)) != null) {
            return false;
        }
        if (crds.claims(group)) {
            return true;
        }
        boolean kubernetes = !group.contains(".") || group.endsWith(".k8s.io");
        return !kubernetes && Discovery.GROUPS.keySet().stream().noneMatch(gv -> gv.startsWith(group + "/"));
    }

    private static MockResponse notFound() {
        return StatusJson.failure(404, "NotFound", "the server could not find the requested resource");
    }

    private static Outcome admitDefinition(RecordedRequest request) {
        JsonNode body = JsonBody.of(request);
        if (!(body instanceof ObjectNode crd)) {
            return new Outcome(request, null);
        }
        MockResponse refused = CrdAdmission.admit(crd);
        return refused != null ? new Outcome(null, refused) : new Outcome(rewritten(request, crd), null);
    }

    private static Outcome admitResource(RecordedRequest request, Target target) {
        JsonNode body = JsonBody.of(request);
        JsonNode schema = target.version().schema();
        if (!(body instanceof ObjectNode object) || schema == null || !schema.isObject()) {
            return new Outcome(request, null);
        }
        List<Cause> errors = StructuralSchema.admit(object, schema);
        if (!errors.isEmpty()) {
            Definition d = target.definition();
            String name = object.path("metadata").path("name").asText(target.name() == null ? "" : target.name());
            return new Outcome(null, FieldErrors.invalidStatus(d.group(), d.kind(), name, errors));
        }
        String path = request.getPath();
        if ("status".equals(target.subresource()) && path.contains("?")) {
            // the store tells a status write by the path's end: its query (kubectl's fieldManager) goes
            path = path.substring(0, path.indexOf('?'));
        }
        return new Outcome(rewritten(request, path, object), null);
    }

    private static RecordedRequest rewritten(RecordedRequest request, JsonNode body) {
        return rewritten(request, request.getPath(), body);
    }

    private static RecordedRequest rewritten(RecordedRequest request, String path, JsonNode body) {
        return new RecordedRequest(
                request.getHttpVersion(),
                request.method(),
                path,
                request.getHeaders(),
                new Buffer(JSON.writeValueAsBytes(body)));
    }
}
