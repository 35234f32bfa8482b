package io.hotsched.core.runtime;

/**
 * Milliseconds, read as one volatile field: cheap enough to take around every plugin call in
 * Filter and Score (per node), where even {@code System.nanoTime()} twice per call would show.
 * A daemon thread advances it every few milliseconds.
 */
public final class CoarseClock implements AutoCloseable {

    private volatile long now = System.currentTimeMillis();
    private final Thread ticker;
    private volatile boolean running = true;

    public CoarseClock() {
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

    public long now() {
        return now;
    }

    @Override
    public void close() {
        running = false;
        ticker.interrupt();
    }
}
