package io.hotsched.kube;

/**
 * A token bucket: {@code qps} tokens a second, at most {@code burst} saved up; {@link #acquire()}
 * waits for a token. The client-side limit kube-scheduler applies to its API writes
 * ({@code clientConnection.qps}/{@code burst}); fabric8 has none of its own.
 */
final class RateLimiter {

    private final double perNano;
    private final double burst;
    private double tokens;
    private long last = System.nanoTime();

    RateLimiter(double qps, int burst) {
        this.perNano = qps <= 0 ? Double.POSITIVE_INFINITY : qps / 1e9;
        this.burst = Math.max(1, burst);
        this.tokens = this.burst;
    }

    /** Takes one token, waiting as long as needed. */
    void acquire() {
        if (Double.isInfinite(perNano)) {
            return;
        }
        long wait;
        synchronized (this) {
            long now = System.nanoTime();
            tokens = Math.min(burst, tokens + (now - last) * perNano);
            last = now;
            tokens -= 1;
            wait = tokens >= 0 ? 0 : (long) (-tokens / perNano);
        }
        if (wait > 0) {
            try {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
