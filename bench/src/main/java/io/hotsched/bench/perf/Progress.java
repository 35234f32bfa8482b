package io.hotsched.bench.perf;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;

/** One line per second on the terminal: workload, phase, objects created, pods scheduled, current rate. */
final class Progress {

    private final PrintStream out;
    private volatile String workload = "";
    private volatile String phase = "";
    private volatile int total;
    private final AtomicInteger created = new AtomicInteger();

    Progress(PrintStream out) {
        this.out = out;
    }

    void workload(String name) {
        this.workload = name;
        out.println("== " + name);
    }

    void phase(String name, int count) {
        this.phase = name;
        this.total = count;
        created.set(0);
        out.printf("   %s: %d%n", name, count);
    }

    void created() {
        created.incrementAndGet();
    }

    void tick(int scheduled, double rate) {
        out.printf(
                "   %s | %s | created %d/%d | scheduled %d | %.0f pods/s%n",
                workload, phase, created.get(), total, scheduled, rate);
    }

    void note(String text) {
        out.println("   " + text);
    }
}
