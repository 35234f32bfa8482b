package io.hotsched.embedded;

import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Lock;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Lists in chunks and at a resource version, as kube-apiserver serves them: {@code limit} items a
 * page in key order (namespace, name), a {@code continue} token to the next page and
 * {@code remainingItemCount} (without selectors, as upstream); every page of one list is read at
 * the version of the first, so objects written meanwhile do not move between pages;
 * {@code resourceVersionMatch=Exact} (and {@code limit} with a version, upstream's legacy rule)
 * reads the store at that version. An older version is the store with the later writes of the
 * {@link EventLog} undone; one the log no longer reaches is 410 Expired with upstream's words, a
 * version not reached yet 504. Lists without these parameters (the scheduler's informers) are not
 * served here: nothing changes for them.
 */
final class ListPages {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    static final String TOO_OLD = "The resourceVersion for the provided list is too old.";
    static final String CONTINUE_TOO_OLD = "The provided continue parameter is too old to display a consistent list"
            + " result. You can start a new list without the continue parameter, or use the continue token in this"
            + " response to retrieve the remainder of the results. Continuing with the provided token results in an"
            + " inconsistent list - objects that were created, modified, or deleted between the time the first chunk"
            + " was returned and now may show up in the list.";

    private final StoreView store;
    private final EventLog log;

    ListPages(StoreView store, EventLog log) {
        this.store = store;
        this.log = log;
    }

    /** The answer to a list request with chunking or version parameters; null for one the store answers as it is. */
    MockResponse answer(RecordedRequest request) {
        String path = request.getPath();
        int q = path.indexOf('?');
        if (q < 0
                || !(path.contains("limit=") || path.contains("continue=") || path.contains("resourceVersion"))
                || !isCollection(path)) {
            return null;
        }
        try {
            ListParams params = ListParams.of(path);
            MockResponse invalid = params.invalid();
            return invalid != null ? invalid : answer(request, params);
        } catch (ListParams.Bad e) {
            return e.answer;
        }
    }

    private MockResponse answer(RecordedRequest request, ListParams params) throws ListParams.Bad {
        long rv = params.version();
        long at;
        String start = "";
        boolean continued = params.continueToken != null;
        if (continued) {
            if (rv > 0) {
                throw new ListParams.Bad("specifying resource version is not allowed when using continue");
            }
            ContinueToken token = ContinueToken.decode(params.continueToken);
            at = token.resourceVersion();
            start = token.start();
        } else if (ListParams.EXACT.equals(params.resourceVersionMatch)) {
            at = rv;
        } else if (ListParams.NOT_OLDER_THAN.equals(params.resourceVersionMatch)) {
            at = -1;
        } else if (params.limit > 0 && rv > 0) {
            // upstream's legacy rule: a version with a limit is read exactly
            at = rv;
        } else if (rv == 0) {
            // "any version": the whole list as it is, limit ignored, as kube-apiserver's watch cache answers it
            return null;
        } else if (params.limit > 0) {
            at = -1;
        } else {
            // a version without limit: not older than it, so now will do, unless it is still to come
            long now = store.resourceVersion();
            return rv > now ? tooLarge(rv, now) : null;
        }
        String path = request.getPath();
        AttributeSet collection = store.collection(path);
        Selector selector = Selector.of(params);
        List<Map.Entry<AttributeSet, String>> entries;
        List<StoreEvent> later = List.of();
        Lock lock = store.readLock();
        lock.lock();
        try {
            long now = store.resourceVersion();
            if (at < 0) {
                if (rv > now) {
                    return tooLarge(rv, now);
                }
                at = now;
            }
            if (at > now) {
                return tooLarge(at, now);
            }
            if (at < now) {
                if (!log.covers(at)) {
                    return continued ? continueExpired(start) : StatusJson.failure(410, "Expired", TOO_OLD);
                }
                later = log.after(at);
            }
            entries = store.entries(collection);
        } finally {
            lock.unlock();
        }
        Map<String, String> rest = itemsAt(collection, selector, entries, later, start);
        List<String> ids = first(rest.keySet(), params.limit);
        StringBuilder body = new StringBuilder("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"metadata\":{");
        body.append("\"resourceVersion\":\"").append(at).append('"');
        StringBuilder page = new StringBuilder();
        for (String id : ids) {
            page.append(page.length() == 0 ? "" : ",").append(rest.get(id));
        }
        String last = ids.isEmpty() ? null : ids.get(ids.size() - 1);
        int remaining = rest.size() - ids.size();
        if (remaining > 0) {
            body.append(",\"continue\":\"")
                    .append(new ContinueToken(at, last + '\0').encode())
                    .append('"');
            if (selector.isEmpty()) {
                body.append(",\"remainingItemCount\":").append(remaining);
            }
        }
        body.append("},\"items\":[").append(page).append("]}");
        MockResponse r = StatusJson.json(body.toString());
        return Tables.wanted(request.getHeader("Accept")) && Tables.served(path) ? Tables.answer(r, path) : r;
    }

    /**
     * The objects of {@code collection} that match {@code selector} as they were before the writes
     * {@code later}, by key ({@code namespace/name}), from key {@code start} on.
     */
    private static Map<String, String> itemsAt(
            AttributeSet collection,
            Selector selector,
            List<Map.Entry<AttributeSet, String>> entries,
            List<StoreEvent> later,
            String start) {
        Map<String, String> items = new HashMap<>();
        for (Map.Entry<AttributeSet, String> e : entries) {
            if (selector.matches(e.getKey(), () -> JSON.readTree(e.getValue()))) {
                String id = id(e.getKey());
                if (id.compareTo(start) >= 0) {
                    items.put(id, e.getValue());
                }
            }
        }
        for (int i = later.size() - 1; i >= 0; i--) {
            StoreEvent e = later.get(i);
            if (e.newKey != null && e.newKey.matches(collection)) {
                items.remove(id(e.newKey));
            }
            if (e.oldKey != null
                    && e.oldKey.matches(collection)
                    && id(e.oldKey).compareTo(start) >= 0
                    && selector.matches(e.oldKey, e::oldObject)) {
                items.put(id(e.oldKey), e.oldJson);
            }
        }
        return items;
    }

    /**
     * The first {@code limit} of {@code ids} in order (all when {@code limit} is 0): a page of a
     * big list keeps {@code limit} of them at a time, not all of them sorted.
     */
    private static List<String> first(java.util.Collection<String> ids, long limit) {
        if (limit <= 0 || ids.size() <= limit) {
            List<String> all = new ArrayList<>(ids);
            Collections.sort(all);
            return all;
        }
        PriorityQueue<String> smallest = new PriorityQueue<>((int) limit + 1, Comparator.reverseOrder());
        for (String id : ids) {
            if (smallest.size() < limit) {
                smallest.add(id);
            } else if (id.compareTo(smallest.peek()) < 0) {
                smallest.poll();
                smallest.add(id);
            }
        }
        List<String> page = new ArrayList<>(smallest);
        Collections.sort(page);
        return page;
    }

    /** An object's key in list order, as upstream's storage orders them: namespace, then name. */
    private static String id(AttributeSet key) {
        String ns = StoreView.attribute(key, "namespace");
        String name = StoreView.attribute(key, StoreIndex.NAME);
        return ns == null ? name : ns + "/" + name;
    }

    private static boolean isCollection(String path) {
        Discovery.ApiPath api = Discovery.ApiPath.of(path);
        int segments = api == null ? 0 : api.rest().size();
        return segments == 1 || (segments == 3 && api.rest().get(0).equals("namespaces"));
    }

    /** kube-apiserver's 504 for a version it has not reached (it waits 3 s first; this server is never behind). */
    private static MockResponse tooLarge(long wanted, long now) {
        return new MockResponse()
                .setResponseCode(504)
                .setHeader("Content-Type", "application/json")
                .setBody(
                        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
                                + StatusJson.quote(
                                        "Timeout: Too large resource version: " + wanted + ", current: " + now)
                                + ",\"reason\":\"Timeout\",\"details\":{\"causes\":[{\"reason\":\"ResourceVersionTooLarge\","
                                + "\"message\":\"Too large resource version\"}],\"retryAfterSeconds\":1},\"code\":504}");
    }

    /** The 410 for a continue token older than the event log, with a token to list the rest at the version now. */
    private static MockResponse continueExpired(String start) {
        return new MockResponse()
                .setResponseCode(410)
                .setHeader("Content-Type", "application/json")
                .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{\"continue\":\""
                        + new ContinueToken(-1, start).encode() + "\"},\"status\":\"Failure\",\"message\":"
                        + StatusJson.quote(CONTINUE_TOO_OLD) + ",\"reason\":\"Expired\",\"code\":410}");
    }
}
