package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When requests of the kinds a fault test counts arrived, faulted or not, so that a client that
 * retries in a busy loop shows: per pod its bindings ({@code bind default/p-1}) and status writes
 * ({@code status default/p-1}), per path the watches started ({@code watch /api/v1/pods}), and
 * per Lease its reads and writes ({@code lease kube-system/hotsched}). Off until {@link #start()}:
 * a long run would keep every time.
 */
public final class RequestLog {

    private static final Pattern BINDING_NAME =
            Pattern.compile("\"metadata\"\\s*:\\s*\\{[^}]*\"name\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern POD_STATUS =
            Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/?]+)/status/?(\\?.*)?");
    private static final Pattern LEASE =
            Pattern.compile("/apis/coordination\\.k8s\\.io/v1/namespaces/([^/]+)/leases/([^/?]+)/?(\\?.*)?");

    private final Map<String, List<Long>> arrivals = new ConcurrentHashMap<>();
    private volatile boolean on;

    RequestLog() {}

    /** Notes the requests from now on. */
    public void start() {
        on = true;
    }

    void note(RecordedRequest request) {
        if (!on) {
            return;
        }
        String key = key(request.method().name(), request.getPath(), request);
        if (key != null) {
            long now = System.nanoTime();
            List<Long> times = arrivals.computeIfAbsent(key, k -> new ArrayList<>());
            synchronized (times) {
                times.add(now);
            }
        }
    }

    /** When the requests of {@code key} arrived ({@link System#nanoTime()}), in order; empty when none. */
    public List<Long> arrivals(String key) {
        List<Long> times = arrivals.get(key);
        if (times == null) {
            return List.of();
        }
        synchronized (times) {
            return List.copyOf(times);
        }
    }

    /** How many requests arrived per key starting with {@code prefix} ("bind ", "watch "). */
    public Map<String, Integer> counts(String prefix) {
        Map<String, Integer> out = new TreeMap<>();
        arrivals.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                synchronized (v) {
                    out.put(k, v.size());
                }
            }
        });
        return out;
    }

    private static String key(String method, String path, RecordedRequest request) {
        Matcher m;
        if ("POST".equals(method) && (m = AuditLog.POD_BINDING.matcher(path)).matches()) {
            return "bind " + m.group(1) + "/" + m.group(2);
        }
        if ("POST".equals(method) && (m = AuditLog.BINDINGS.matcher(path)).matches()) {
            String body = request.getBody() == null
                    ? ""
                    : new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
            Matcher name = BINDING_NAME.matcher(body);
            return "bind " + m.group(1) + "/" + (name.find() ? name.group(1) : "?");
        }
        if (("PATCH".equals(method) || "PUT".equals(method)) && (m = POD_STATUS.matcher(path)).matches()) {
            return "status " + m.group(1) + "/" + m.group(2);
        }
        if ((m = LEASE.matcher(path)).matches()) {
            return "lease " + m.group(1) + "/" + m.group(2);
        }
        if ("GET".equals(method) && path.contains("watch=true")) {
            int q = path.indexOf('?');
            return "watch " + path.substring(0, q);
        }
        return null;
    }
}
