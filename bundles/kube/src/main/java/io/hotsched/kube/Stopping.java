package io.hotsched.kube;

import java.util.function.Consumer;

/** How a component stops what it started: a part that never started (activation failed early) is passed over. */
final class Stopping {

    private Stopping() {}

    static <T> void ifStarted(T part, Consumer<? super T> stop) {
        if (part != null) {
            stop.accept(part);
        }
    }
}
