package io.hotsched.core.admin;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The last scheduling attempt of a pod.
 *
 * @param rejections per node, the rejecting plugin and its reasons (unschedulable attempts)
 * @param topScores the best nodes with their total and each plugin's score × weight (bound pods)
 * @param notes what happened since the outcome: plugin calls of the attempt given up on at their
 *     time-out
 */
public record ExplainView(
        String pod,
        String profile,
        Instant time,
        int attempt,
        String outcome,
        String message,
        Map<String, String> rejections,
        List<NodeScores> topScores,
        List<String> notes) {

    /** One scored node. */
    public record NodeScores(String node, long total, Map<String, String> byPlugin) {}
}
