package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Which answers hold back the next attempt, and for how long (the header's reading, without HTTP). */
class RetryAfterTest {

    @Test
    void secondsOnAThrottledOrFailedAnswerAreWaited() {
        assertEquals(1_000, RetryAfter.waitMillis(429, "1"), "429 with Retry-After: 1");
        assertEquals(3_000, RetryAfter.waitMillis(503, "3"), "503 with Retry-After: 3");
        assertEquals(2_000, RetryAfter.waitMillis(500, " 2 "), "surrounding blanks are not part of the value");
        assertEquals(0, RetryAfter.waitMillis(503, "0"), "Retry-After: 0 asks for no wait");
    }

    @Test
    void aLongWaitIsCappedSoALeaseRenewalKeepsItsDeadline() {
        assertEquals(RetryAfter.CAP.toMillis(), RetryAfter.waitMillis(429, "60"), "Retry-After: 60");
        assertEquals(RetryAfter.CAP.toMillis(), RetryAfter.waitMillis(429, "5"), "Retry-After: 5, the cap itself");
        assertEquals(
                RetryAfter.CAP.toMillis(),
                RetryAfter.waitMillis(503, "99999999999999999999999"),
                "more digits than a long holds");
    }

    @Test
    void otherAnswersWaitNothing() {
        assertEquals(0, RetryAfter.waitMillis(409, "1"), "409 Conflict with Retry-After");
        assertEquals(0, RetryAfter.waitMillis(404, "1"), "404 with Retry-After");
        assertEquals(0, RetryAfter.waitMillis(200, "1"), "200 with Retry-After");
        assertEquals(0, RetryAfter.waitMillis(429, null), "429 without Retry-After");
        assertEquals(0, RetryAfter.waitMillis(600, "1"), "600 is no 5xx");
    }

    @Test
    void aDateOrGarbageWaitsNothing() {
        assertEquals(0, RetryAfter.waitMillis(429, "Wed, 21 Oct 2015 07:28:00 GMT"), "an HTTP-date");
        assertEquals(0, RetryAfter.waitMillis(429, "soon"), "a word");
        assertEquals(0, RetryAfter.waitMillis(429, "1.5"), "a fraction");
        assertEquals(0, RetryAfter.waitMillis(429, "-1"), "a negative number");
        assertEquals(0, RetryAfter.waitMillis(429, ""), "an empty value");
        assertEquals(0, RetryAfter.waitMillis(429, "١"), "a digit that is not ASCII");
    }
}
