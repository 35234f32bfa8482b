package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which answers hold back the next attempt, and for how long (the header's reading, without HTTP). */
class RetryAfterTest {

    private static final long CAP = RetryAfter.CAP.toMillis();

    private record Answer(String why, int code, String retryAfter, long waitMillis) {}

    private static void check(List<Answer> answers) {
        assertAll(answers.stream()
                .map(a -> () -> assertEquals(
                        a.waitMillis(), RetryAfter.waitMillis(a.code(), a.retryAfter()), a.why() + ": wait in ms")));
    }

    @Test
    void eachAnswerWaitsWhatItsCodeAndHeaderAsk() {
        check(List.of(
                // seconds on a throttled or failed answer are waited
                new Answer("429 with Retry-After: 1", 429, "1", 1_000),
                new Answer("503 with Retry-After: 3", 503, "3", 3_000),
                new Answer("blanks around the value", 500, " 2 ", 2_000),
                new Answer("Retry-After: 0 asks for no wait", 503, "0", 0),
                // a long wait is capped, so that a Lease renewal keeps its deadline
                new Answer("Retry-After: 60", 429, "60", CAP),
                new Answer("Retry-After: 5, the cap itself", 429, "5", CAP),
                new Answer("more digits than a long holds", 503, "99999999999999999999999", CAP),
                // other answers wait nothing
                new Answer("409 Conflict with Retry-After", 409, "1", 0),
                new Answer("404 with Retry-After", 404, "1", 0),
                new Answer("200 with Retry-After", 200, "1", 0),
                new Answer("429 without Retry-After", 429, null, 0),
                new Answer("600 is no 5xx", 600, "1", 0),
                // nor does a date, or anything but delta-seconds
                new Answer("an HTTP-date", 429, "Wed, 21 Oct 2015 07:28:00 GMT", 0),
                new Answer("a word", 429, "soon", 0),
                new Answer("a fraction", 429, "1.5", 0),
                new Answer("a negative number", 429, "-1", 0),
                new Answer("an empty value", 429, "", 0),
                new Answer("a digit that is not ASCII", 429, "\u0661", 0)));
    }
}
