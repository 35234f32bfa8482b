package io.hotsched.plugins.dynamicresources;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A semantic version as CEL sees it (the {@code kubernetes.Semver} type): a device attribute of
 * kind {@code version}, or {@code semver("1.2.3")}. Ordered by major, minor, patch, then
 * pre-release as semver 2.0 orders it; build metadata is ignored.
 */
record CelSemver(long major, long minor, long patch, String pre) implements Comparable<CelSemver> {

    private static final Pattern SEMVER = Pattern.compile(
            "(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?(?:\\+[0-9A-Za-z-.]+)?");

    static CelSemver parse(String text) {
        Matcher m = SEMVER.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("invalid semver \"" + text + "\"");
        }
        return new CelSemver(
                Long.parseLong(m.group(1)),
                Long.parseLong(m.group(2)),
                Long.parseLong(m.group(3)),
                m.group(4) == null ? "" : m.group(4));
    }

    static boolean isSemver(String text) {
        return SEMVER.matcher(text).matches();
    }

    @Override
    public int compareTo(CelSemver o) {
        int c = Long.compare(major, o.major);
        if (c == 0) {
            c = Long.compare(minor, o.minor);
        }
        if (c == 0) {
            c = Long.compare(patch, o.patch);
        }
        return c != 0 ? c : comparePre(pre, o.pre);
    }

    /** A version without pre-release ranks above one with; identifiers compare numerically when both are numbers. */
    private static int comparePre(String a, String b) {
        if (a.equals(b)) {
            return 0;
        }
        if (a.isEmpty() || b.isEmpty()) {
            return a.isEmpty() ? 1 : -1;
        }
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            boolean xn = x[i].chars().allMatch(Character::isDigit);
            boolean yn = y[i].chars().allMatch(Character::isDigit);
            int c = xn && yn
                    ? Long.compare(Long.parseLong(x[i]), Long.parseLong(y[i]))
                    : xn != yn ? (xn ? -1 : 1) : x[i].compareTo(y[i]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.length, y.length);
    }
}
