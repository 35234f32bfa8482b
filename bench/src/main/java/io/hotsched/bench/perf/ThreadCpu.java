package io.hotsched.bench.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU seconds of a process's threads, grouped by what they do (from their names in
 * {@code /proc/PID/task}): the JIT, the GC, the scheduling loop, ... Linux only; empty elsewhere.
 * Read at the start and the end of the measured phase, it says where each JVM's CPU went.
 */
final class ThreadCpu {

    /** Clock ticks per second of {@code /proc/.../stat} (USER_HZ, 100 on Linux). */
    private static final double TICKS = 100.0;

    private ThreadCpu() {}

    /** CPU seconds per group of {@code pid}'s threads that are alive now. */
    static Map<String, Double> of(long pid) {
        Map<String, Double> out = new TreeMap<>();
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        try (Stream<Path> all = Files.list(tasks)) {
            for (Path t : (Iterable<Path>) all::iterator) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    // the name sits in parentheses and may hold spaces: the numbers come after the last ')'
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    double seconds = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS;
                    out.merge(group(name), seconds, Double::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended while being read
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return out;
    }

    /** {@code after - before} per group, largest first, groups under 0.05 s left out. */
    static Map<String, Double> delta(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> d = new TreeMap<>();
        after.forEach((k, v) -> d.put(k, v - before.getOrDefault(k, 0.0)));
        Map<String, Double> sorted = new LinkedHashMap<>();
        d.entrySet().stream()
                .filter(e -> e.getValue() >= 0.05)
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    static String group(String thread) {
        if (thread.startsWith("C2 Compiler") || thread.startsWith("C1 Compiler")) {
            return "JIT";
        }
        if (thread.startsWith("G1 ") || thread.startsWith("GC Thread") || thread.startsWith("VM Thread")) {
            return "GC and VM";
        }
        if (thread.startsWith("hotsched-schedu")) {
            return "scheduling loop";
        }
        if (thread.startsWith("hotsched-worker")) {
            return "Filter/Score workers";
        }
        if (thread.startsWith("hotsched-binder")) {
            return "binding cycles";
        }
        if (thread.startsWith("hotsched-status")) {
            return "status and event writes";
        }
        if (thread.startsWith("vert.x-eventloo")) {
            return "API server (vert.x event loop)";
        }
        if (thread.startsWith("JdkHttpClientFa")
                || thread.startsWith("HttpClient-")
                || thread.startsWith("ForkJoinPool")) {
            return "HTTP client";
        }
        if (thread.startsWith("pool-")) {
            return "runner's creators";
        }
        if (thread.startsWith("-") || thread.startsWith("Thread-")) {
            return "client callbacks (informers, responses)";
        }
        return "other";
    }

    /** One line: group seconds, largest first. */
    static String describe(Map<String, Double> delta) {
        StringBuilder b = new StringBuilder();
        delta.forEach((k, v) ->
                b.append(b.length() == 0 ? "" : "; ").append(k).append(' ').append(String.format("%.1f", v)));
        return b.toString();
    }
}
