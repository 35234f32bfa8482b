package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RateLimiterTest {

    @Test
    void aBurstPassesThenTheRateHolds() {
        RateLimiter r = new RateLimiter(100, 5);
        long t0 = System.nanoTime();
        for (int i = 0; i < 5; i++) {
            r.acquire();
        }
        long burst = System.nanoTime() - t0;
        for (int i = 0; i < 10; i++) {
            r.acquire();
        }
        long total = System.nanoTime() - t0;
        // 10 tokens beyond the burst at 100/s need at least ~100 ms; the bound is loose on purpose
        assertTrue(total >= 80_000_000L, "rate not enforced: " + total / 1_000_000 + " ms");
        assertTrue(burst < total, "burst not free");
    }

    @Test
    void zeroQpsMeansNoLimit() {
        RateLimiter r = new RateLimiter(0, 0);
        for (int i = 0; i < 100_000; i++) {
            r.acquire();
        }
    }
}
