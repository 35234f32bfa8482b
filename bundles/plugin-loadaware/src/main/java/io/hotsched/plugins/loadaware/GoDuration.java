package io.hotsched.plugins.loadaware;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go's duration strings as Kubernetes objects carry them ({@code 5m0s}, {@code 1h30m}, {@code 300s}). */
final class GoDuration {

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

    private GoDuration() {}

    /** Milliseconds; 0 for null or empty. */
    static long millis(String s) {
        if (s == null || s.isEmpty() || s.equals("0")) {
            return 0;
        }
        Matcher m = PART.matcher(s);
        int at = 0;
        double total = 0;
        while (m.find() && m.start() == at) {
            double v = Double.parseDouble(m.group(1));
            total += switch (m.group(2)) {
                case "h" -> v * 3_600_000;
                case "m" -> v * 60_000;
                case "s" -> v * 1000;
                case "ms" -> v;
                case "us", "µs" -> v / 1000;
                default -> v / 1_000_000;
            };
            at = m.end();
        }
        if (at != s.length()) {
            throw new IllegalArgumentException("not a duration: \"" + s + "\" (examples: 5m, 300s, 1h30m)");
        }
        return Math.round(total);
    }
}
