package io.hotsched.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every piece runs exactly once, failures surface, and a piece may itself fan out. */
class ParallelizerImplTest {

    @Test
    void everyPieceRunsOnce() {
        try (ParallelizerImpl p = new ParallelizerImpl(4, "t")) {
            AtomicIntegerArray runs = new AtomicIntegerArray(1000);
            p.until(1000, runs::incrementAndGet);
            for (int i = 0; i < 1000; i++) {
                assertEquals(1, runs.get(i), "piece " + i);
            }
        }
    }

    @Test
    void aFailingPieceIsRethrownAfterTheOthersRan() {
        try (ParallelizerImpl p = new ParallelizerImpl(2, "t")) {
            AtomicInteger ran = new AtomicInteger();
            assertThrows(IllegalStateException.class, () -> p.until(10, i -> {
                ran.incrementAndGet();
                if (i == 3) {
                    throw new IllegalStateException("piece 3");
                }
            }));
            assertEquals(10, ran.get());
        }
    }

    @Test
    @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void piecesThatFanOutAgainDoNotDeadlockTheSmallestPool() {
        // parallelism 2 = one pool thread: a nested call made on it finds no free helper
        try (ParallelizerImpl p = new ParallelizerImpl(2, "t")) {
            AtomicInteger inner = new AtomicInteger();
            for (int round = 0; round < 200; round++) {
                p.until(2, i -> p.until(8, j -> inner.incrementAndGet()));
            }
            assertEquals(200 * 2 * 8, inner.get());
        }
    }
}
