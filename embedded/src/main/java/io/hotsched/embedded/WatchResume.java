package io.hotsched.embedded;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the stock mock server gets wrong when a watch reconnects: it answers a watch from an old
 * {@code resourceVersion} with ADDED events for what exists now, so a client never learns about
 * objects deleted while it was away. A real API server replays the deletions or answers 410 Gone,
 * after which clients (informers) list again and notice what vanished. This remembers, per
 * collection, the resource version of the last deletion, so a watch that starts before it can be
 * answered 410.
 */
final class WatchResume {

    private final Map<String, Long> lastDeletion = new ConcurrentHashMap<>();

    /** Records a deletion in the collection of {@code path}, at {@code resourceVersion}. */
    void deleted(String path, long resourceVersion) {
        lastDeletion.merge(collection(path), resourceVersion, Math::max);
    }

    /**
     * The resource version of a deletion the watch of {@code path} would miss, or -1 when the watch
     * may start: it names no resource version (or 0, "any"), or one at or after the last deletion.
     */
    long missedDeletion(String path) {
        long since = resourceVersion(path);
        if (since <= 0) {
            return -1;
        }
        Long deleted = lastDeletion.get(collection(path));
        return deleted != null && since < deleted ? deleted : -1;
    }

    /**
     * The collection a path is in, without namespace and name: {@code /api/v1/namespaces/ns/pods/p}
     * and {@code /api/v1/pods?watch=true} are both {@code /api/v1/pods}.
     */
    static String collection(String path) {
        String p = path.split("\\?", 2)[0];
        String[] s = p.replaceFirst("^/+", "").split("/");
        int base = s[0].equals("api") ? 2 : 3;
        if (s.length <= base) {
            return p;
        }
        int i = base;
        if (s[i].equals("namespaces") && s.length > i + 2) {
            i += 2;
        }
        return "/" + String.join("/", Arrays.copyOfRange(s, 0, base)) + "/" + s[i];
    }

    private static long resourceVersion(String path) {
        int q = path.indexOf('?');
        if (q < 0) {
            return -1;
        }
        for (String param : path.substring(q + 1).split("&")) {
            if (param.startsWith("resourceVersion=")) {
                try {
                    return Long.parseLong(param.substring("resourceVersion=".length()));
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }
}
