package io.hotsched.core.runtime;

/**
 * Milliseconds, read as one volatile field: cheap enough to take around every plugin call in
 * Filter and Score (per node), where even {@code System.nanoTime()} twice per call would show.
 * A daemon thread advances it every few milliseconds; a {@link #manual} one moves only when told,
 * so that a test can make a call late without waiting for its time-out.
 */
public final class CoarseClock implements AutoCloseable {

    private volatile long now = System.currentTimeMillis();
    /** Null for a manual clock. */
    private final Thread ticker;

    private volatile boolean running = true;

    public CoarseClock() {
        this(true);
    }

    private CoarseClock(boolean ticking) {
        if (!ticking) {
            ticker = null;
            return;
        }
        ticker = new Thread(
                () -> {
                    while (running) {
                        now = System.currentTimeMillis();
                        try {
                            Thread.sleep(4);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                },
                "hotsched-clock");
        ticker.setDaemon(true);
        ticker.start();
    }

    /** A clock that stands still at {@code startMillis} until it is {@link #advance advanced}. */
    public static CoarseClock manual(long startMillis) {
        CoarseClock c = new CoarseClock(false);
        c.now = startMillis;
        return c;
    }

    public long now() {
        return now;
    }

    /** Moves a {@link #manual} clock on by {@code millis}. */
    public synchronized void advance(long millis) {
        if (ticker != null) {
            throw new IllegalStateException("this clock follows the system clock; only a manual one is advanced");
        }
        now += millis;
    }

    @Override
    public void close() {
        running = false;
        if (ticker != null) {
            ticker.interrupt();
        }
    }
}
