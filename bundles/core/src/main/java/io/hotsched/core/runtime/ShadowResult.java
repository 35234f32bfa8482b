package io.hotsched.core.runtime;

import java.util.List;
import java.util.Objects;

/**
 * What one plugin version in shadow would have decided for one pod, beside what the serving version
 * decided, over the same nodes.
 *
 * @param servingChoice the node the serving version chose (or, in observe-only mode, the node the
 *     pod was bound to)
 * @param shadowChoice the node the shadow would have chosen; null when it finds none
 * @param filterDiffs the nodes one version lets through and the other refuses
 * @param scoreDiffs up to {@link Shadow#SCORE_DIFFS_KEPT} nodes on which the plugin's normalized score differs
 * @param scoreDiffCount on how many nodes it differs
 * @param fault the failure of the shadow run (the shadow's, or another plugin's in it); null when it ran
 * @param shadowFault whether the fault is the shadow version's own (counted against it)
 * @param observing whether an observe-only profile decided, beside another scheduler's binding
 *     (its reasons then say "observer", not "shadow")
 * @param favouring observe-only: the plugins whose weighted score is higher on the observer's node
 *     than on the node bound, when the observer let that node through
 */
public record ShadowResult(
        String pod,
        String profile,
        String plugin,
        String servingVersion,
        String shadowVersion,
        String servingChoice,
        String shadowChoice,
        List<NodeVerdict> filterDiffs,
        List<ScoreDiff> scoreDiffs,
        int scoreDiffCount,
        String fault,
        boolean shadowFault,
        boolean observing,
        List<String> favouring) {

    /** One node's Filter verdicts: null where the version lets the node through, else its reason. */
    public record NodeVerdict(String node, String serving, String shadow) {}

    /** One node's normalized score of the plugin under each version. */
    public record ScoreDiff(String node, long serving, long shadow) {}

    public boolean agrees() {
        return fault == null && Objects.equals(servingChoice, shadowChoice);
    }

    public boolean disagrees() {
        return fault == null && !Objects.equals(servingChoice, shadowChoice);
    }

    /** Why the choices differ: each refusing side's reason, or the scores when no verdict differs. */
    public List<String> reasons() {
        if (!disagrees()) {
            return List.of();
        }
        String mine = observing ? "observer refuses: " : "shadow refuses: ";
        List<String> out = filterDiffs.stream()
                .map(d -> d.shadow() != null ? mine + d.shadow() : "serving refuses: " + d.serving())
                .distinct()
                .toList();
        if (!out.isEmpty()) {
            return out;
        }
        if (observing && servingChoice == null) {
            return List.of("the observed scheduler found no node, the observer one");
        }
        if (observing) {
            return List.of(
                    favouring.isEmpty()
                            ? "observer scores another node higher"
                            : "observer scores another node higher: " + String.join(", ", favouring));
        }
        return List.of(scoreDiffCount > 0 ? "scores differ" : "other plugins' scores");
    }
}
