package io.hotsched.kube;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Polls a condition the API server's side makes true eventually. */
final class Await {

    private Await() {}

    static void until(String what, int seconds, BooleanSupplier c) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (c.getAsBoolean()) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("not seen within " + seconds + " s: " + what);
    }
}
