package io.hotsched.embedded;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * fabric8's CRUD dispatcher plus what a scheduler needs from an API server: the binding
 * subresource ({@code pods/NAME/binding} and {@code namespaces/NS/bindings}) setting
 * {@code spec.nodeName} through the store, so watchers see the update, with 404 for a missing pod
 * and 409 for a bound one; the discovery and OpenAPI documents kubectl reads ({@link OpenApi}),
 * with {@code fieldValidation} ({@link FieldValidation}); and 410 Gone for a watch that
 * resumes from before a deletion (see {@link WatchResume}).
 */
final class SchedulerDispatcher extends KubernetesCrudDispatcher {

    private static final Pattern POD_BINDING =
            Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/binding/?(\\?.*)?");
    private static final Pattern BINDINGS = Pattern.compile("/api/v1/namespaces/([^/]+)/bindings/?(\\?.*)?");
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final Object bindLock = new Object();
    private final WatchResume watchResume = new WatchResume();
    private final StoreIndex index = new StoreIndex();
    private final Admission admission = new Admission();
    private final Patches patches;
    private final boolean indexed;
    private final OpenApiSchemas schemas = new OpenApiSchemas();
    private final CustomResourceDefinitions crds = new CustomResourceDefinitions();
    private final CustomResources customResources = new CustomResources(crds);
    private final java.util.Set<String> customGroups = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final OpenApi openApi = new OpenApi(schemas, crds::groups);
    private final FieldValidation fieldValidation = new FieldValidation(schemas);

    /** Named look-ups answered from the index (for the benchmark and the behaviour test). */
    final java.util.concurrent.atomic.AtomicLong indexHits = new java.util.concurrent.atomic.AtomicLong();

    private final java.util.concurrent.atomic.AtomicInteger failingBinds =
            new java.util.concurrent.atomic.AtomicInteger();
    private volatile int failingBindCode = 500;
    private final java.util.Map<String, java.util.concurrent.atomic.AtomicInteger> bindsByNamespace =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** Pods of {@code namespace} bound through the binding subresource since the server started. */
    int bindsIn(String namespace) {
        java.util.concurrent.atomic.AtomicInteger n = bindsByNamespace.get(namespace);
        return n == null ? 0 : n.get();
    }

    private void bound(String namespace) {
        bindsByNamespace
                .computeIfAbsent(namespace, k -> new java.util.concurrent.atomic.AtomicInteger())
                .incrementAndGet();
    }

    /** The next {@code times} binds are answered {@code code} without binding (to test clients' retries). */
    void failNextBinds(int times, int code) {
        failingBindCode = code;
        failingBinds.set(times);
    }

    SchedulerDispatcher(List<CustomResourceDefinitionContext> crds) {
        this(crds, true);
    }

    /** @param indexed false keeps the stock scans (the behaviour test compares both) */
    SchedulerDispatcher(List<CustomResourceDefinitionContext> crds, boolean indexed) {
        super(crds);
        this.indexed = indexed;
        java.util.concurrent.locks.Lock write = storeWriteLock();
        crds.forEach(c -> customGroups.add(c.getGroup()));
        this.patches = new Patches(
                customGroups,
                write != null ? write : new java.util.concurrent.locks.ReentrantLock(),
                path -> {
                    java.util.Map.Entry<AttributeSet, String> e =
                            findResource(getAttributeExtractor().fromPath(path));
                    return e == null ? null : e.getValue();
                },
                this::route);
    }

    // ---- the index: kept in step on the single write path, used for named look-ups ------------------

    @Override
    public void processEvent(
            String path,
            AttributeSet pathAttributes,
            AttributeSet oldAttributes,
            GenericKubernetesResource resource,
            String newState) {
        boolean definition = CustomResourceDefinitions.isDefinitionPath(path);
        String oldState = definition && oldAttributes != null ? map.get(oldAttributes) : null;
        super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
        admission.written(path, newState);
        if (definition) {
            definitionWritten(path, oldState, newState);
        }
        if (!indexed) {
            return;
        }
        AttributeSet added = null;
        if (newState != null) {
            // the key the store now holds, derived as the store derives it
            KubernetesAttributesExtractor x = (KubernetesAttributesExtractor) getAttributeExtractor();
            AttributeSet key = resource != null ? x.extract(resource) : x.fromResource(newState);
            if (!key.containsKey(StoreIndex.PLURAL)) {
                key = AttributeSet.merge(pathAttributes, key);
            }
            // one key instance for store and index: equal keys, so swapping it in changes nothing else
            String value = map.remove(key);
            map.put(key, value != null ? value : newState);
            index.add(key);
            added = key;
        }
        if (oldAttributes != null && !oldAttributes.equals(added)) {
            index.remove(oldAttributes);
        }
    }

    @Override
    public java.util.Map.Entry<AttributeSet, String> findResource(AttributeSet query) {
        List<AttributeSet> candidates = indexed ? index.candidates(query) : null;
        if (candidates == null) {
            return super.findResource(query);
        }
        for (AttributeSet k : candidates) {
            if (k.matches(query)) {
                String v = map.get(k);
                if (v == null) {
                    // a write is between store and index: the scan is right
                    return super.findResource(query);
                }
                indexHits.incrementAndGet();
                return java.util.Map.entry(k, v);
            }
        }
        indexHits.incrementAndGet();
        return null;
    }

    private static final Pattern NAMED = Pattern.compile(
            "/api/v1/(namespaces/[^/?]+/)?[^/?]+/[^/?]+|/apis/[^/?]+/[^/?]+/(namespaces/[^/?]+/)?[^/?]+/[^/?]+");

    @Override
    public MockResponse handleGet(String path) {
        if (indexed && NAMED.matcher(path).matches()) {
            AttributeSet query = getAttributeExtractor().fromPath(path);
            List<AttributeSet> candidates = index.candidates(query);
            if (candidates != null) {
                String found = null;
                int matches = 0;
                for (AttributeSet k : candidates) {
                    if (k.matches(query)) {
                        found = map.get(k);
                        matches++;
                    }
                }
                if (matches == 1 && found != null) {
                    indexHits.incrementAndGet();
                    return new MockResponse().setResponseCode(200).setBody(found);
                }
                if (matches == 0) {
                    indexHits.incrementAndGet();
                    return new MockResponse().setResponseCode(404);
                }
            }
        }
        return super.handleGet(path);
    }

    @Override
    public void reset() {
        super.reset();
        index.clear();
        admission.clear();
        crds.clear();
        schemas.customKinds(List.of());
        openApi.changed();
    }

    /**
     * Follows a write of a CustomResourceDefinition: the kinds it serves are served (with the
     * status subresource's rules of the store for each version), OpenAPI and validation know their
     * schemas, and when it is deleted its objects go, as kube-apiserver's cleanup removes them
     * (here at once, finalizers or not).
     */
    private void definitionWritten(String path, String oldState, String newState) {
        CustomResourceDefinitions.Definition gone = crds.written(path, oldState, newState);
        for (CustomResourceDefinitions.Definition d : crds.all()) {
            customGroups.add(d.group());
            for (CustomResourceDefinitions.Version v : d.versions()) {
                expectCustomResource(new CustomResourceDefinitionContext.Builder()
                        .withGroup(d.group())
                        .withVersion(v.name())
                        .withKind(d.kind())
                        .withPlural(d.plural())
                        .withScope(d.namespaced() ? "Namespaced" : "Cluster")
                        .withStatusSubresource(v.status())
                        .build());
            }
        }
        schemas.customKinds(crds.all());
        openApi.changed();
        if (gone != null) {
            purge(gone);
        }
    }

    /** Deletes every stored object of {@code d}'s kind (the store's write lock is held). */
    private void purge(CustomResourceDefinitions.Definition d) {
        for (AttributeSet key : new java.util.ArrayList<>(map.keySet())) {
            if (d.group().equals(StoreIndex.value(key, "api"))
                    && d.plural().equals(StoreIndex.value(key, StoreIndex.PLURAL))) {
                String namespace = StoreIndex.value(key, "namespace");
                String path = "/apis/" + d.group() + "/" + StoreIndex.value(key, "version")
                        + (namespace == null ? "" : "/namespaces/" + namespace) + "/" + d.plural() + "/"
                        + StoreIndex.value(key, StoreIndex.NAME);
                processEvent(path, key, key, null, null);
                watchResume.deleted(path, requestResourceVersion());
            }
        }
    }

    private final ScaleSubresource scale =
            new ScaleSubresource(this::handleGet, this::mergePatch, customResources::scaled);

    private MockResponse mergePatch(String path, String patch) {
        return handlePatch(new RecordedRequest(
                "HTTP/1.1",
                HttpMethod.PATCH,
                path,
                Headers.builder()
                        .add("Content-Type", "application/merge-patch+json")
                        .build(),
                new Buffer(patch.getBytes(StandardCharsets.UTF_8))));
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        MockResponse refused = Negotiation.notAcceptable(request);
        if (refused != null) {
            return refused;
        }
        try {
            RecordedRequest readable = Negotiation.readable(request);
            String directive = FieldValidation.directive(readable.getPath());
            List<String> unknown = directive == null ? List.of() : unknownFields(readable);
            if (!unknown.isEmpty() && directive.equals("Strict")) {
                return refusal(readable, unknown);
            }
            MockResponse answer = route(readable);
            if (!unknown.isEmpty()) {
                answer = FieldValidation.warned(answer, unknown);
            }
            if (readable.method() == HttpMethod.GET) {
                answer = customResources.table(ListKinds.typed(answer, readable.getPath(), crds.groups()), readable);
            }
            return Negotiation.typed(StoreAnswers.asKubeApiserver(answer, readable));
        } catch (Negotiation.Unsupported e) {
            return e.answer;
        }
    }

    /**
     * The fields of a create, update or (merge or strategic merge) patch its kind does not have;
     * the kind is the body's for a create or update, the path's for a patch.
     */
    private List<String> unknownFields(RecordedRequest request) {
        HttpMethod method = request.method();
        boolean patch = method == HttpMethod.PATCH;
        if (!patch && method != HttpMethod.POST && method != HttpMethod.PUT) {
            return List.of();
        }
        String type = String.valueOf(request.getHeader("Content-Type"));
        if (patch && !type.startsWith(Patches.MERGE_PATCH) && !type.startsWith(Patches.STRATEGIC)) {
            return List.of();
        }
        JsonNode body = request.getBody() == null
                ? null
                : parse(new String(request.getBody().getBytes(), StandardCharsets.UTF_8));
        String[] kind = patch ? Discovery.kindAt(request.getPath(), crds.groups()) : kindOf(body);
        if (body == null || kind == null) {
            return List.of();
        }
        return fieldValidation.unknownFields(kind[0], kind[1], body);
    }

    private static String[] kindOf(JsonNode body) {
        String apiVersion = body == null ? "" : body.path("apiVersion").asText("");
        String kind = body == null ? "" : body.path("kind").asText("");
        return apiVersion.isEmpty() || kind.isEmpty() ? null : new String[] {apiVersion, kind};
    }

    private static MockResponse refusal(RecordedRequest request, List<String> unknown) {
        if (request.method() == HttpMethod.PATCH) {
            return FieldValidation.refusedPatch(unknown);
        }
        String[] kind = kindOf(parse(new String(request.getBody().getBytes(), StandardCharsets.UTF_8)));
        return FieldValidation.refusedObject(kind[0], kind[1], unknown);
    }

    private MockResponse route(RecordedRequest request) {
        CustomResources.Outcome custom = customResources.intercept(request);
        if (custom.answer() != null) {
            return custom.answer();
        }
        request = custom.request();
        String path = request.getPath();
        if (EventsApi.isFor(path)) {
            return EventsApi.answer(request, this::route);
        }
        MockResponse scaled = path.endsWith("/scale") || path.contains("/scale?") ? scale.dispatch(request) : null;
        if (scaled != null) {
            return scaled;
        }
        if (request.method() == HttpMethod.GET) {
            String doc = Discovery.document(path, crds.groups());
            if (doc != null) {
                return StatusJson.json(doc);
            }
            if (path.startsWith("/openapi/")) {
                MockResponse openApiDoc = openApi.answer(path, request.getHeader("Accept"));
                // not the empty list the store would answer
                return openApiDoc != null
                        ? openApiDoc
                        : StatusJson.failure(404, "NotFound", "the server could not find the requested resource");
            }
            boolean watch = path.contains("watch=true");
            FieldSelector.Split fields = watch ? null : FieldSelector.split(path);
            String rest = fields != null ? fields.path() : path;
            LabelQuery.Split labels = watch ? null : LabelQuery.split(rest);
            String collection = WatchResume.collection(path);
            boolean table = Tables.wanted(request.getHeader("Accept"))
                    && !watch
                    && (collection.equals("/api/v1/pods")
                            || collection.equals("/api/v1/nodes")
                            || collection.equals("/apis/apps/v1/deployments")
                            || collection.equals("/api/v1/events")
                            || collection.equals("/apis/events.k8s.io/v1/events"));
            if (fields != null || labels != null || table) {
                MockResponse r = fields != null || labels != null
                        ? filtered(
                                request,
                                labels != null ? labels.path() : rest,
                                item -> (fields == null
                                                || fields.terms().stream().allMatch(t -> t.matches(item)))
                                        && (labels == null || labels.matches(item)))
                        : super.dispatch(request);
                return table ? asTable(r, collection) : r;
            }
        }
        if (request.method() == HttpMethod.POST) {
            MockResponse evicted = Evictions.evict(path, this::handleDelete);
            if (evicted != null) {
                return evicted;
            }
            Matcher pod = POD_BINDING.matcher(path);
            Matcher bindings = BINDINGS.matcher(path);
            if (pod.matches() || bindings.matches()) {
                // the body can be read once only
                JsonNode body = parse(request.getUtf8Body());
                if (pod.matches()) {
                    return bind(pod.group(1), pod.group(2), body);
                }
                String name =
                        body == null ? null : body.path("metadata").path("name").asText(null);
                if (name == null) {
                    return StatusJson.failure(400, "BadRequest", "Binding has no metadata.name");
                }
                return bind(bindings.group(1), name, body);
            }
        }
        if (request.method() == HttpMethod.PATCH) {
            return patches.patch(request);
        }
        if (request.method() == HttpMethod.POST || request.method() == HttpMethod.PUT) {
            Admission.Outcome admitted = admission.admit(request);
            return admitted.refusal() != null ? admitted.refusal() : super.dispatch(admitted.request());
        }
        return super.dispatch(request);
    }

    @Override
    public MockResponse handleDelete(String path) {
        MockResponse indexedAnswer = indexed ? indexedDelete(path) : null;
        MockResponse r = indexedAnswer != null ? indexedAnswer : super.handleDelete(path);
        if (r.code() < 300) {
            // a deletion gets a resource version of its own, as on a real API server
            watchResume.deleted(path, requestResourceVersion());
        }
        return r;
    }

    @Override
    public MockResponse handleWatch(String path) {
        long missed = watchResume.missedDeletion(path);
        if (missed >= 0) {
            // as a real API server does: the watch opens, and its only event is an ERROR with a 410
            // Status; the informer lists again and sees what vanished, which the stock watch would hide
            String expired = "{\"type\":\"ERROR\",\"object\":"
                    + StatusJson.status(
                            410, "Expired", "too old resource version: a deletion at " + missed + " happened since")
                    + "}";
            return new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
                @Override
                public void onOpen(WebSocket ws, Response response) {
                    ws.send(expired);
                    ws.close(1000, "");
                }
            });
        }
        return super.handleWatch(path);
    }

    /** The JSON answer {@code r} (a list or one object) as a Table, when it is one. */
    private static MockResponse asTable(MockResponse r, String collection) {
        if (r.code() != 200) {
            return r;
        }
        JsonNode body = parse(new String(r.getBody().getBytes(), StandardCharsets.UTF_8));
        if (body == null) {
            return r;
        }
        java.time.Instant now = java.time.Instant.now();
        JsonNode t = collection.endsWith("/pods")
                ? Tables.pods(body, now)
                : collection.endsWith("/deployments")
                        ? Tables.deployments(body, now)
                        : collection.endsWith("/events") ? Tables.events(body, now) : Tables.nodes(body, now);
        return StatusJson.json(JSON.writeValueAsString(t))
                .setHeader("Content-Type", "application/json;as=Table;v=v1;g=meta.k8s.io");
    }

    /** A list request answered by the store for {@code path}, keeping the items {@code keep} accepts. */
    private MockResponse filtered(RecordedRequest request, String path, java.util.function.Predicate<JsonNode> keep) {
        MockResponse r = super.dispatch(new RecordedRequest(
                request.getHttpVersion(), HttpMethod.GET, path, request.getHeaders(), new Buffer()));
        if (r.code() != 200) {
            return r;
        }
        JsonNode list = parse(new String(r.getBody().getBytes(), StandardCharsets.UTF_8));
        if (list == null || !list.path("items").isArray()) {
            return r;
        }
        tools.jackson.databind.node.ObjectNode out = (tools.jackson.databind.node.ObjectNode) list;
        tools.jackson.databind.node.ArrayNode kept = JSON.createArrayNode();
        for (JsonNode item : list.path("items")) {
            if (keep.test(item)) {
                kept.add(item);
            }
        }
        out.set("items", kept);
        return StatusJson.json(JSON.writeValueAsString(out));
    }

    private MockResponse bind(String namespace, String name, JsonNode binding) {
        String node =
                binding == null ? null : binding.path("target").path("name").asText(null);
        if (node == null || node.isEmpty()) {
            return StatusJson.failure(400, "BadRequest", "Binding has no target.name");
        }
        String podPath = "/api/v1/namespaces/" + namespace + "/pods/" + name;
        if (failingBinds.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            return StatusJson.failure(
                    failingBindCode, failingBindCode == 409 ? "Conflict" : "InternalError", "injected failure");
        }
        java.util.concurrent.locks.Lock write = storeWriteLock();
        if (write == null || !indexed) {
            return bindByPatch(podPath, name, node);
        }
        // the store's own write path, under its write lock, with one parse and one serialization of
        // the pod: the merge-patch handler parses, diffs and re-serializes it several times
        write.lock();
        try {
            AttributeSet query = getAttributeExtractor().fromPath(podPath);
            java.util.Map.Entry<AttributeSet, String> current = findResource(query);
            if (current == null) {
                return StatusJson.failure(404, "NotFound", "pods \"" + name + "\" not found");
            }
            JsonNode pod = parse(current.getValue());
            if (!(pod instanceof tools.jackson.databind.node.ObjectNode object)) {
                return StatusJson.failure(
                        500, "InternalError", "stored pod " + namespace + "/" + name + " is not an object");
            }
            String bound = pod.path("spec").path("nodeName").asText("");
            if (!bound.isEmpty()) {
                return alreadyBound(name, bound);
            }
            ((tools.jackson.databind.node.ObjectNode) object.withObject("spec")).put("nodeName", node);
            ((tools.jackson.databind.node.ObjectNode) object.withObject("metadata"))
                    .put("resourceVersion", String.valueOf(requestResourceVersion()));
            processEvent(podPath, query, current.getKey(), null, JSON.writeValueAsString(object));
            bound(namespace);
            return StatusJson.created();
        } finally {
            write.unlock();
        }
    }

    /**
     * A DELETE of one named object from the index, with the store's own rules: an object without
     * finalizers goes; one with finalizers gets a deletion timestamp (once) and stays until they are
     * removed. Null when the index cannot answer (the store's scan then does).
     */
    private MockResponse indexedDelete(String path) {
        java.util.concurrent.locks.Lock write = storeWriteLock();
        if (write == null || !NAMED.matcher(path).matches()) {
            return null;
        }
        write.lock();
        try {
            AttributeSet query = getAttributeExtractor().fromPath(path);
            List<AttributeSet> candidates = index.candidates(query);
            if (candidates == null) {
                return null;
            }
            List<AttributeSet> matching =
                    candidates.stream().filter(k -> k.matches(query)).toList();
            if (matching.size() > 1) {
                return null;
            }
            indexHits.incrementAndGet();
            if (matching.isEmpty()) {
                return new MockResponse().setResponseCode(404);
            }
            AttributeSet key = matching.get(0);
            String value = map.get(key);
            if (value == null) {
                return null;
            }
            GenericKubernetesResource object = Serialization.unmarshal(value, GenericKubernetesResource.class);
            if (object.getFinalizers().isEmpty()) {
                processEvent(path, query, key, null, null);
            } else if (!object.isMarkedForDeletion()) {
                object.getMetadata()
                        .setDeletionTimestamp(java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC)
                                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                                .format(java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME));
                object.getMetadata().setResourceVersion(String.valueOf(requestResourceVersion()));
                processEvent(path, query, key, object, Serialization.asJson(object));
            }
            return new MockResponse().setResponseCode(200).setBody(value);
        } finally {
            write.unlock();
        }
    }

    private static MockResponse alreadyBound(String name, String node) {
        return StatusJson.failure(
                409,
                "Conflict",
                "Operation cannot be fulfilled on pods/binding \"" + name + "\": pod " + name
                        + " is already assigned to node \"" + node + "\"");
    }

    /** The stock way: a merge patch of spec.nodeName (the store without index, or without access to its lock). */
    private MockResponse bindByPatch(String podPath, String name, String node) {
        synchronized (bindLock) {
            MockResponse current = handleGet(podPath);
            if (current.code() == 404) {
                return StatusJson.failure(404, "NotFound", "pods \"" + name + "\" not found");
            }
            JsonNode pod = parse(new String(current.getBody().getBytes(), StandardCharsets.UTF_8));
            String bound = pod == null ? "" : pod.path("spec").path("nodeName").asText("");
            if (!bound.isEmpty()) {
                return alreadyBound(name, bound);
            }
            MockResponse r = mergePatch(podPath, "{\"spec\":{\"nodeName\":" + StatusJson.quote(node) + "}}");
            if (r.code() >= 300) {
                return r;
            }
            bound(podPath.split("/")[4]);
            return StatusJson.created();
        }
    }

    private volatile java.util.concurrent.locks.Lock storeWriteLock;
    private volatile boolean storeWriteLockLooked;

    /**
     * The write lock the store's handlers hold while they write (a private field of fabric8's
     * dispatcher, read once); null when this version of the mock has no such field.
     */
    private java.util.concurrent.locks.Lock storeWriteLock() {
        if (!storeWriteLockLooked) {
            try {
                java.lang.reflect.Field f =
                        io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher.class.getDeclaredField(
                                "lock");
                f.setAccessible(true);
                storeWriteLock = ((java.util.concurrent.locks.ReadWriteLock) f.get(this)).writeLock();
            } catch (ReflectiveOperationException | RuntimeException e) {
                storeWriteLock = null;
            }
            storeWriteLockLooked = true;
        }
        return storeWriteLock;
    }

    private static JsonNode parse(String body) {
        try {
            return body == null || body.isEmpty() ? null : JSON.readTree(body);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
