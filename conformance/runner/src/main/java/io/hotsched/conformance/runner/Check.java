package io.hotsched.conformance.runner;

import java.util.Objects;

/** The comparisons a case makes; a difference is thrown as an {@link AssertionError} naming what differed. */
public final class Check {

    private Check() {}

    public static void equal(Object expected, Object actual, String what) {
        if (!Objects.equals(expected, actual)) {
            throw new AssertionError(what + ": expected <" + expected + "> but was <" + actual + ">");
        }
    }

    public static void isTrue(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    public static void notNull(Object value, String what) {
        if (value == null) {
            throw new AssertionError(what);
        }
    }

    public static AssertionError fail(String what) {
        throw new AssertionError(what);
    }
}
