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
 * with {@code fieldValidation} ({@link FieldValidation}); watches as kube-apiserver serves them
 * ({@link Watches}: versions, selectors, bookmarks) and chunked or versioned lists
 * ({@link ListPages}), both from the log of the latest writes ({@link EventLog}).
 */
final class SchedulerDispatcher extends KubernetesCrudDispatcher {

    private static final Pattern POD_BINDING =
            Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/binding/?(\\?.*)?");
    private static final Pattern BINDINGS = Pattern.compile("/api/v1/namespaces/([^/]+)/bindings/?(\\?.*)?");
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final Object bindLock = new Object();
    private final EventLog log;
    private final StoreView store;
    private final Watches watches;
    private final ListPages pages;
    private final StoreIndex index = new StoreIndex();
    private final Admission admission = new Admission();
    private final Patches patches;
    private final Writes writes;
    private final ServerSideApply apply;
    /** Null without the store's lock: status PUTs then go unchecked, as the store has them. */
    private final StatusWrites statusWrites;

    private final Evictions evictions = new Evictions(new Evictions.Store() {
        @Override
        public MockResponse get(String path) {
            return handleGet(path);
        }

        @Override
        public MockResponse put(String path, String body) {
            RecordedRequest put = new RecordedRequest(
                    "HTTP/1.1",
                    HttpMethod.PUT,
                    path,
                    Headers.builder().add("Content-Type", "application/json").build(),
                    new Buffer(body.getBytes(StandardCharsets.UTF_8)));
            MockResponse r = statusWrites != null ? statusWrites.put(put, body) : null;
            return r != null ? r : handleUpdate(put);
        }

        @Override
        public MockResponse delete(String path) {
            return handleDelete(path);
        }
    });
    private final boolean indexed;
    private final OpenApiSchemas schemas = new OpenApiSchemas();
    private final CustomResourceDefinitions crds = new CustomResourceDefinitions();
    private final CustomResources customResources = new CustomResources(crds);
    private final java.util.Set<String> customGroups = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final OpenApi openApi = new OpenApi(schemas, crds::groups);
    private final FieldValidation fieldValidation = new FieldValidation(schemas);
    private final AccessReviews reviews = new AccessReviews(this::storedObject);

    /** Named look-ups answered from the index (for the benchmark and the behaviour test). */
    final java.util.concurrent.atomic.AtomicLong indexHits = new java.util.concurrent.atomic.AtomicLong();

    private final java.util.concurrent.atomic.AtomicInteger failingBinds =
            new java.util.concurrent.atomic.AtomicInteger();
    private volatile int failingBindCode = 500;
    private final ApiFaults faults = new ApiFaults();
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
        this(crds, indexed, EventLog.DEFAULT_CAPACITY, Watches.BOOKMARK_MILLIS);
    }

    /**
     * @param eventLogCapacity how many of the latest writes watches and lists can go back over
     * @param bookmarkMillis how often a watch that allows bookmarks gets one
     */
    SchedulerDispatcher(
            List<CustomResourceDefinitionContext> crds, boolean indexed, int eventLogCapacity, long bookmarkMillis) {
        super(crds);
        this.indexed = indexed;
        this.log = new EventLog(eventLogCapacity);
        this.store = new StoreView(this, map);
        this.watches = new Watches(store, log, bookmarkMillis);
        watches.rows(customResources::rows);
        this.pages = new ListPages(store, log);
        java.util.concurrent.locks.Lock write = storeWriteLock();
        crds.forEach(c -> customGroups.add(c.getGroup()));
        java.util.concurrent.locks.Lock lock = write != null ? write : new java.util.concurrent.locks.ReentrantLock();
        StoreAccess store = new StoreAccess(customGroups, lock, this::stored);
        this.patches = new Patches(store, this::route);
        // without the store's lock the store's own create does it (null)
        this.writes =
                new Writes(admission, store, super::dispatch, write != null ? new AdmittedCreate(this, write) : null);
        this.statusWrites = write != null ? new StatusWrites(this::handleGet, this::handleUpdate, write) : null;
        // an apply's result is a write like any other: a custom resource's schema and a definition's checks apply
        this.apply = new ServerSideApply(store, applied -> {
            CustomResources.Outcome custom = customResources.intercept(applied);
            return custom.answer() != null ? custom.answer() : writes.writeManaged(custom.request());
        });
    }

    /** The object or list the store answers for {@code path}, or null. */
    private JsonNode storedObject(String path) {
        MockResponse r = handleGet(path);
        return r.code() == 200 && r.getBody() != null
                ? parse(new String(r.getBody().getBytes(), StandardCharsets.UTF_8))
                : null;
    }

    /** The user a bearer token of this server names (a ServiceAccount's), or null. */
    String userOf(String token) {
        return reviews.userOf(token);
    }

    /** The stored JSON of the object at {@code path}, or null. */
    private String stored(String path) {
        java.util.Map.Entry<AttributeSet, String> e =
                findResource(getAttributeExtractor().fromPath(path));
        return e == null ? null : e.getValue();
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
        String before = oldAttributes == null ? null : map.get(oldAttributes);
        super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
        admission.written(path, newState);
        AttributeSet added = null;
        if (newState != null) {
            // the key the store now holds, derived as the store derives it
            KubernetesAttributesExtractor x = (KubernetesAttributesExtractor) getAttributeExtractor();
            added = resource != null ? x.extract(resource) : x.fromResource(newState);
            if (!added.containsKey(StoreIndex.PLURAL)) {
                added = AttributeSet.merge(pathAttributes, added);
            }
        }
        if (indexed) {
            if (added != null) {
                // one key instance for store and index: equal keys, so swapping it in changes nothing else
                String value = map.remove(added);
                map.put(added, value != null ? value : newState);
                index.add(added);
            }
            if (oldAttributes != null && !oldAttributes.equals(added)) {
                index.remove(oldAttributes);
            }
        }
        if (!java.util.Objects.equals(before, newState)) {
            // a deletion is a write with a version of its own, as on a real API server
            long version = newState == null ? requestResourceVersion() : store.resourceVersion();
            StoreEvent e = new StoreEvent(version, oldAttributes, before, added, newState);
            log.append(e);
            watches.publish(e);
        }
        if (definition) {
            definitionWritten(path, before, newState);
        }
    }

    /** The watches open now. */
    int openWatches() {
        return watches.size();
    }

    /** Waits until the number of open watches satisfies {@code test}, at most {@code millis}; whether it does. */
    boolean awaitOpenWatches(java.util.function.IntPredicate test, long millis) throws InterruptedException {
        return watches.awaitSize(test, millis);
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

    /** Forgets the history of writes, as etcd's compaction does: a watch or list from before now is 410 Expired. */
    void compact() {
        log.clear();
    }

    @Override
    public void reset() {
        super.reset();
        index.clear();
        log.clear();
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

    private volatile AuditLog audit;

    /** Records bindings and Lease writes in {@code log} from now on (null: no more). */
    void audit(AuditLog log) {
        this.audit = log;
    }

    private final RequestLog requests = new RequestLog();

    RequestLog requests() {
        return requests;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        requests.note(request);
        ApiFaults.Rule fault = faults.hit(request.method().name(), request.getPath());
        if (fault == null) {
            return dispatchAudited(request);
        }
        return switch (fault.effect()) {
            case REFUSE -> faultAnswer(fault);
            case AFTER_COMMIT -> {
                dispatchAudited(request);
                yield faultAnswer(fault);
            }
            case SLOW -> dispatchAudited(request).setBodyDelay(fault.delay());
        };
    }

    /** kube-apiserver's reason and words for the status a fault answers with. */
    private static MockResponse faultAnswer(ApiFaults.Rule fault) {
        MockResponse r = switch (fault.code()) {
            case 409 -> StatusJson.failure(409, "Conflict", "injected fault " + fault.name());
            case 429 ->
                StatusJson.failure(
                        429,
                        "TooManyRequests",
                        "the server has received too many requests and has asked us to try again later");
            case 503 ->
                StatusJson.failure(503, "ServiceUnavailable", "the server is currently unable to handle the request");
            case 504 ->
                StatusJson.failure(
                        504,
                        "Timeout",
                        "the server was unable to return a response in the"
                                + " time allotted, but may still be processing the request");
            default ->
                StatusJson.failure(
                        fault.code(), "InternalError", "Internal error occurred: injected fault " + fault.name());
        };
        if (fault.retryAfterSeconds() > 0) {
            r.setHeader("Retry-After", Long.toString(fault.retryAfterSeconds()));
        }
        return r;
    }

    ApiFaults faults() {
        return faults;
    }

    private MockResponse dispatchAudited(RecordedRequest request) {
        AuditLog a = audit;
        java.util.concurrent.locks.Lock write = storeWriteLock();
        if (a == null || write == null || !AuditLog.audited(request)) {
            return answer(request);
        }
        java.time.Instant received = java.time.Instant.now();
        String body =
                request.getBody() == null ? null : new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
        // under the store's write lock: the log's order is the order the writes took effect
        write.lock();
        try {
            MockResponse r = answer(request);
            a.answered(request, body, r, received);
            return r;
        } finally {
            write.unlock();
        }
    }

    private MockResponse answer(RecordedRequest request) {
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
        MockResponse reviewed = reviews.answer(request, request.getPath());
        if (reviewed != null) {
            return reviewed;
        }
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
            if (ListParams.isWatch(path)) {
                return watches.open(request);
            }
            MockResponse page = pages.answer(request);
            if (page != null) {
                return page;
            }
            FieldSelector.Split fields = FieldSelector.split(path);
            String rest = fields != null ? fields.path() : path;
            LabelQuery.Split labels = LabelQuery.split(rest);
            boolean table = Tables.wanted(request.getHeader("Accept")) && Tables.served(path);
            if (fields != null || labels != null || table) {
                MockResponse r = fields != null || labels != null
                        ? filtered(
                                request,
                                labels != null ? labels.path() : rest,
                                item -> (fields == null
                                                || fields.terms().stream().allMatch(t -> t.matches(item)))
                                        && (labels == null || labels.matches(item)))
                        : super.dispatch(request);
                return table ? Tables.answer(r, path) : r;
            }
        }
        if (request.method() == HttpMethod.POST) {
            if (Evictions.EVICTION.matcher(path).matches()) {
                return evictions.evict(path, request.getUtf8Body());
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
            return ServerSideApply.isApply(request) ? apply.apply(request) : patches.patch(request);
        }
        if (request.method() == HttpMethod.PUT && statusWrites != null && request.getBody() != null) {
            MockResponse written =
                    statusWrites.put(request, new String(request.getBody().getBytes(), StandardCharsets.UTF_8));
            if (written != null) {
                return written;
            }
        }
        if (request.method() == HttpMethod.POST || request.method() == HttpMethod.PUT) {
            return writes.write(request);
        }
        return super.dispatch(request);
    }

    @Override
    public MockResponse handleDelete(String path) {
        MockResponse indexedAnswer = indexed ? indexedDelete(path) : null;
        return indexedAnswer != null ? indexedAnswer : super.handleDelete(path);
    }

    /** Any watch, also one the store's own GET would start, is one of {@link Watches}. */
    @Override
    public MockResponse handleWatch(String path) {
        return watches.open(new RecordedRequest(
                "HTTP/1.1", HttpMethod.GET, path, Headers.builder().build(), new Buffer()));
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
                storeWriteLock = StoreFields.lock(this).writeLock();
            } catch (IllegalStateException e) {
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
