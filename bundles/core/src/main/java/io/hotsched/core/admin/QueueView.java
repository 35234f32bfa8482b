package io.hotsched.core.admin;

import java.util.List;
import java.util.Map;

/** The scheduling queue: counts per sub-queue, and the pods in it. */
public record QueueView(Map<String, Integer> counts, List<Entry> pods) {

    /** A queued pod: where it is, attempts so far, the plugins that rejected it, the last failure. */
    public record Entry(String pod, String queue, int attempts, List<String> rejectedBy, String lastFailure) {}
}
