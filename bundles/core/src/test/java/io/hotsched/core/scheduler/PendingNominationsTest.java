package io.hotsched.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class PendingNominationsTest {

    private final PendingNominations nominations = new PendingNominations();

    @Test
    void aPodWithNoNominationBeingWrittenIsNotHeld() {
        assertTrue(nominations.written("uid-a").isDone());
    }

    @Test
    void aBindingWaitsUntilTheNominationIsWritten() {
        CompletableFuture<Void> tracked = nominations.track("uid-a");
        CompletableFuture<Void> waiting = nominations.written("uid-a");
        assertFalse(waiting.isDone());
        assertTrue(nominations.written("uid-b").isDone());
        nominations.done("uid-a", tracked);
        assertTrue(waiting.isDone());
        assertEquals(0, nominations.size());
    }

    @Test
    void anEarlierWriteEndingDoesNotReleaseALaterNomination() {
        CompletableFuture<Void> first = nominations.track("uid-a");
        CompletableFuture<Void> second = nominations.track("uid-a");
        nominations.done("uid-a", first);
        assertFalse(nominations.written("uid-a").isDone());
        nominations.done("uid-a", second);
        assertTrue(nominations.written("uid-a").isDone());
    }
}
