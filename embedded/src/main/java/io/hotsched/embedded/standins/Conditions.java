package io.hotsched.embedded.standins;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Timestamps of conditions and status fields, at the API's precision of one second. */
final class Conditions {

    private Conditions() {}

    static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
