package io.hotsched.core.scheduler;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The last scheduling attempt of a pod, for {@code sched:explain}.
 *
 * @param outcome "bound to NODE", "unschedulable", "error", "waiting"
 * @param message the FitError text or error message; for a success, the chosen node's line
 * @param rejections per node: the plugin that rejected it and its reasons
 * @param topScores for a success with scoring: the best nodes with their total and per-plugin scores
 * @param notes what happened since: plugin calls of the attempt the scheduler gave up on
 */
public record Explanation(
        String podKey,
        String profile,
        Instant time,
        int attempt,
        String outcome,
        String message,
        Map<String, String> rejections,
        List<NodeScoreLine> topScores,
        List<String> notes) {

    /** This explanation with {@code note} added. */
    public Explanation withNote(String note) {
        List<String> more = new ArrayList<>(notes);
        more.add(note);
        return new Explanation(
                podKey, profile, time, attempt, outcome, message, rejections, topScores, List.copyOf(more));
    }

    /** One scored node: total and each plugin's normalized score × weight. */
    public record NodeScoreLine(String node, long total, Map<String, String> byPlugin) {}
}
