package io.hotsched.conformance;

import java.util.Objects;

/** The comparisons a case makes; a difference is thrown as an {@link AssertionError} naming what differed. */
final class Check {

    private Check() {}

    static void equal(Object expected, Object actual, String what) {
        if (!Objects.equals(expected, actual)) {
            throw new AssertionError(what + ": expected <" + expected + "> but was <" + actual + ">");
        }
    }

    static void isTrue(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    static void notNull(Object value, String what) {
        if (value == null) {
            throw new AssertionError(what);
        }
    }

    static AssertionError fail(String what) {
        throw new AssertionError(what);
    }
}
