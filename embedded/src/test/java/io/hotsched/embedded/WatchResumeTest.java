package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which watches would miss a deletion, per collection. */
class WatchResumeTest {

    @ParameterizedTest
    @CsvSource({
        "/api/v1/namespaces/default/pods/p1, /api/v1/pods",
        "/api/v1/pods?watch=true&resourceVersion=3, /api/v1/pods",
        "/api/v1/namespaces/demo/pods?watch=true, /api/v1/pods",
        "/api/v1/nodes/n1, /api/v1/nodes",
        "/api/v1/namespaces/demo, /api/v1/namespaces",
        "/apis/apps/v1/namespaces/a/replicasets/rs, /apis/apps/v1/replicasets"
    })
    void pathsOfOneCollectionShareIt(String path, String collection) {
        assertEquals(collection, WatchResume.collection(path));
    }

    @Test
    void aWatchFromBeforeADeletionInItsCollectionMissesIt() {
        WatchResume w = new WatchResume();
        w.deleted("/api/v1/namespaces/default/pods/p1", 10);
        assertEquals(10, w.missedDeletion("/api/v1/pods?allowWatchBookmarks=true&resourceVersion=9&watch=true"));
        assertEquals(
                -1,
                w.missedDeletion("/api/v1/pods?resourceVersion=10&watch=true"),
                "a list at or after the deletion saw it");
        assertEquals(-1, w.missedDeletion("/api/v1/nodes?resourceVersion=9&watch=true"), "another collection");
        assertEquals(-1, w.missedDeletion("/api/v1/pods?watch=true"), "no resource version: from now");
        assertEquals(-1, w.missedDeletion("/api/v1/pods?resourceVersion=0&watch=true"), "0 means any");
    }
}
