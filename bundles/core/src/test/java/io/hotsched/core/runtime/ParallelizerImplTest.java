package io.hotsched.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
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
            assertThrows(
                    IllegalStateException.class,
                    () -> p.until(10, i -> {
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

    @Test
    @Timeout(30)
    void aLentWorkerStandsInForAStuckOneUntilItReturns() throws Exception {
        try (ParallelizerImpl p = new ParallelizerImpl(2, "t")) {
            CountDownLatch bothStuck = new CountDownLatch(2);
            CountDownLatch release = new CountDownLatch(1);
            Set<Thread> stuck = ConcurrentHashMap.newKeySet();
            // the caller's thread and the only helper each block in a piece, as in a hanging plugin
            Thread caller = new Thread(() -> p.until(2, i -> {
                stuck.add(Thread.currentThread());
                bothStuck.countDown();
                awaitQuietly(release);
            }));
            caller.start();
            assertTrue(bothStuck.await(10, TimeUnit.SECONDS), "both pieces taken");
            assertEquals(1, stuck.stream().filter(p::owns).count(), "one stuck thread is the pool's worker");
            assertFalse(p.owns(caller));

            // two pieces that must run at the same time: impossible while the only helper is stuck
            Runnable giveBack = p.lend();
            CyclicBarrier together = new CyclicBarrier(2);
            p.until(2, i -> {
                try {
                    together.await(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException("the pieces did not run at the same time", e);
                }
            });
            assertEquals(2, p.poolSize(), "the stuck worker and the lent one");

            release.countDown();
            caller.join(10_000);
            giveBack.run();
            AtomicIntegerArray runs = new AtomicIntegerArray(100);
            p.until(100, runs::incrementAndGet);
            for (int i = 0; i < 100; i++) {
                assertEquals(1, runs.get(i), "piece " + i + " after the worker was given back");
            }
        }
    }

    private static void awaitQuietly(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
