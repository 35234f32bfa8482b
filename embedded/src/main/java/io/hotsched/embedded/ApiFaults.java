package io.hotsched.embedded;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Faults the embedded API server puts into its answers, for tests of what a client does when the
 * API server misbehaves. A rule matches requests by method and path and hits every n-th of them
 * (deterministic, so a run can be repeated): it refuses the request with a status (and a
 * Retry-After), or applies it and then answers with an error (the write took effect, the client
 * cannot know), or applies it and sends the answer late. Rules act until {@link #clear()}.
 */
public final class ApiFaults {

    /** {@code POST} of a pod's binding subresource or of the namespaced bindings collection. */
    public static final String BINDINGS = "/api/v1/namespaces/[^/]+/(pods/[^/]+/binding|bindings)/?(\\?.*)?";
    /** Pod status writes (the scheduler's PodScheduled condition, nominated node). */
    public static final String POD_STATUS = "/api/v1/namespaces/[^/]+/pods/[^/]+/status/?(\\?.*)?";
    /** Events, core and events.k8s.io. */
    public static final String EVENTS = "/(api/v1|apis/events\\.k8s\\.io/v1)/namespaces/[^/]+/events.*";
    /** Lists of pods and nodes (an informer's relist), not watches. */
    public static final String LISTS = "/api/v1/(pods|nodes)(\\?(?!.*watch=true).*)?";

    /** Watches of pods and nodes. */
    public static final String WATCHES = "/api/v1/(pods|nodes)\\?(.*&)?watch=true.*";
    /** Reads and writes of Leases (leader election). */
    public static final String LEASES = "/apis/coordination\\.k8s\\.io/v1/namespaces/[^/]+/leases.*";

    /** What a hit does. */
    public enum Effect {
        /** Answered with the status; nothing is applied. */
        REFUSE,
        /** Applied, then answered with the status, as when the answer of a committed write is lost. */
        AFTER_COMMIT,
        /** Applied and answered as usual, after the delay. */
        SLOW
    }

    /** One fault: which requests, how often, and what it does to them. */
    public record Rule(
            String name,
            Set<String> methods,
            Pattern path,
            int every,
            Effect effect,
            int code,
            long retryAfterSeconds,
            Duration delay) {

        public Rule {
            if (every < 1) {
                throw new IllegalArgumentException("every must be 1 or more, not " + every);
            }
        }

        /** Every {@code every}-th {@code method} on {@code path} is refused with {@code code}. */
        public static Rule refuse(String name, String method, String path, int every, int code) {
            return new Rule(name, Set.of(method), Pattern.compile(path), every, Effect.REFUSE, code, 0, Duration.ZERO);
        }

        /** Every {@code every}-th {@code method} on {@code path} takes effect, and its answer is {@code code}. */
        public static Rule afterCommit(String name, String method, String path, int every, int code) {
            return new Rule(
                    name, Set.of(method), Pattern.compile(path), every, Effect.AFTER_COMMIT, code, 0, Duration.ZERO);
        }

        /** Every {@code every}-th {@code method} on {@code path} is answered {@code delay} late. */
        public static Rule slow(String name, String method, String path, int every, Duration delay) {
            return new Rule(name, Set.of(method), Pattern.compile(path), every, Effect.SLOW, 200, 0, delay);
        }

        /** The refusal carries {@code Retry-After: seconds}. */
        public Rule retryAfter(long seconds) {
            return new Rule(name, methods, path, every, effect, code, seconds, delay);
        }
    }

    private record Active(Rule rule, AtomicLong seen, AtomicLong hit) {}

    private final List<Active> rules = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicLong> injected = new java.util.concurrent.ConcurrentHashMap<>();

    ApiFaults() {}

    public void add(Rule rule) {
        injected.putIfAbsent(rule.name(), new AtomicLong());
        rules.add(new Active(rule, new AtomicLong(), injected.get(rule.name())));
    }

    /** Ends every rule; the counts stay. */
    public void clear() {
        rules.clear();
    }

    /** How many requests each rule hit so far, by rule name. */
    public Map<String, Long> injected() {
        Map<String, Long> out = new TreeMap<>();
        injected.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    /** The rule that hits this request, counting it, or null. */
    Rule hit(String method, String path) {
        for (Active a : rules) {
            Rule r = a.rule();
            if (r.methods().contains(method) && r.path().matcher(path).matches()) {
                if (a.seen().incrementAndGet() % r.every() == 0) {
                    a.hit().incrementAndGet();
                    return r;
                }
                return null;
            }
        }
        return null;
    }
}
