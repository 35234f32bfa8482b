package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Which watches would miss a deletion, per collection. */
class WatchResumeTest {

    @Test
    void pathsOfOneCollectionShareIt() {
        assertEquals("/api/v1/pods", WatchResume.collection("/api/v1/namespaces/default/pods/p1"));
        assertEquals("/api/v1/pods", WatchResume.collection("/api/v1/pods?watch=true&resourceVersion=3"));
        assertEquals("/api/v1/pods", WatchResume.collection("/api/v1/namespaces/demo/pods?watch=true"));
        assertEquals("/api/v1/nodes", WatchResume.collection("/api/v1/nodes/n1"));
        assertEquals("/api/v1/namespaces", WatchResume.collection("/api/v1/namespaces/demo"));
        assertEquals("/apis/apps/v1/replicasets", WatchResume.collection("/apis/apps/v1/namespaces/a/replicasets/rs"));
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
