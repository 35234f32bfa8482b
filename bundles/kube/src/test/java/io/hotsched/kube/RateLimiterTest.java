package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The token bucket on a hand-moved clock: which acquisitions wait, and how long. */
class RateLimiterTest {

    private long now;
    private final List<Long> waits = new ArrayList<>();

    private RateLimiter limiter(double qps, int burst) {
        return new RateLimiter(qps, burst, () -> now, waits::add);
    }

    @Test
    void aBurstPassesThenEachTokenWaitsItsShare() {
        RateLimiter r = limiter(100, 3);
        r.acquire();
        r.acquire();
        r.acquire();
        assertEquals(List.of(), waits, "the burst is free");
        r.acquire();
        assertEquals(List.of(10_000_000L), waits, "one token at 100/s is 10 ms");
        r.acquire();
        assertEquals(20_000_000L, waits.get(1), "the debt accumulates while no time passes");
    }

    @Test
    void idleTimeRefillsUpToTheBurst() {
        RateLimiter r = limiter(10, 2);
        r.acquire();
        r.acquire();
        now += 10_000_000_000L;
        r.acquire();
        r.acquire();
        assertEquals(List.of(), waits, "refilled to 2, not to 100");
        r.acquire();
        assertEquals(List.of(100_000_000L), waits);
    }

    @Test
    void zeroQpsMeansNoLimit() {
        RateLimiter r = limiter(0, 0);
        for (int i = 0; i < 1000; i++) {
            r.acquire();
        }
        assertEquals(List.of(), waits);
    }
}
