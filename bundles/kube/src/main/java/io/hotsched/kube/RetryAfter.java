package io.hotsched.kube;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.utils.Utils;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Holds back a 429 or 5xx answer that carries {@code Retry-After} for the seconds it names, so
 * that whichever retry follows (the caller's, or fabric8's own for reads and watches) is sent no
 * sooner than the API server asked. fabric8 8.0.0 reads the header but schedules its retry after
 * its plain backoff; client-go waits the seconds given.
 *
 * <p>The wait is a timer on fabric8's shared scheduler, the one its own retries use, so no thread
 * is held. It is capped at {@link #CAP}: a Lease renewal goes through the same client and must
 * not sit past its renew deadline (kube-scheduler's default is 10 s, the tests' 2 s) because an
 * overloaded server asked for a minute. Only delta-seconds count; an HTTP-date depends on two
 * clocks agreeing, and the API server sends seconds, so a date or anything else means no wait.
 */
final class RetryAfter implements Interceptor {

    static final String NAME = "hotsched-retry-after";
    static final Duration CAP = Duration.ofSeconds(5);

    private static final Pattern SECONDS = Pattern.compile("[0-9]+");

    @Override
    public CompletableFuture<Boolean> afterFailure(BasicBuilder builder, HttpResponse<?> response, RequestTags tags) {
        long millis = waitMillis(response.code(), response.header("Retry-After"));
        if (millis == 0) {
            return CompletableFuture.completedFuture(false);
        }
        // false: this interceptor sends nothing again itself, the retry stays its caller's to count
        return Utils.schedule(Runnable::run, () -> {}, millis, TimeUnit.MILLISECONDS)
                .thenApply(done -> false);
    }

    /**
     * How long an answer of {@code code} with {@code retryAfter} (the header's value, or null)
     * holds back the next attempt: its seconds for a 429 or 5xx, at most {@link #CAP}; else 0.
     */
    static long waitMillis(int code, String retryAfter) {
        if (code != 429 && code < 500 || code > 599 || retryAfter == null) {
            return 0;
        }
        String value = retryAfter.trim();
        if (!SECONDS.matcher(value).matches()) {
            return 0;
        }
        // more digits than a long holds still asks for a long wait
        return value.length() > 9
                ? CAP.toMillis()
                : Math.min(TimeUnit.SECONDS.toMillis(Long.parseLong(value)), CAP.toMillis());
    }
}
