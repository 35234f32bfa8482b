package io.hotsched.shell;

import io.hotsched.core.admin.ShadowView;
import java.util.List;
import java.util.Locale;

/** The text of {@code sched:shadow}: the shadows' figures, or one plugin's last disagreements. */
final class ShadowText {

    private ShadowText() {}

    static String list(List<ShadowView> shadows) {
        if (shadows.isEmpty()) {
            return "No plugin version in shadow on this replica (sched:shadow --start PLUGIN VERSION, or a bundle with "
                    + "Hotsched-Shadow: true), and no observe-only profile (observeSchedulerName and observeProfile)\n";
        }
        Table t = new Table(
                "PLUGIN",
                "SERVING",
                "SHADOW",
                "STATE",
                "PODS",
                "AGREE",
                "FAULTS",
                "SKIPPED",
                "DECIDE µs",
                "SHADOW CPU ms");
        for (ShadowView v : shadows) {
            boolean observer = isObserver(v);
            t.row(
                    v.plugin(),
                    v.servingVersion(),
                    v.shadowVersion(),
                    v.state(),
                    v.compared(),
                    String.format(Locale.ROOT, "%.2f%% (%d)", v.agreement() * 100, v.agreed()),
                    v.faults(),
                    v.skippedCpu() + " cpu, " + v.skippedQueue() + " queue"
                            + (observer ? ", " + v.skippedPending() + " over the pending cap" : ""),
                    // another scheduler's decision time is not known here
                    (observer ? "-" : String.valueOf(v.meanServingMicros())) + " / " + v.meanShadowMicros(),
                    v.shadowCpuMillis());
        }
        StringBuilder b = new StringBuilder(t.toString());
        for (ShadowView v : shadows) {
            v.disagreementsByReason()
                    .forEach((reason, n) -> b.append(v.plugin())
                            .append(' ')
                            .append(v.shadowVersion())
                            .append(": ")
                            .append(n)
                            .append(" pod(s): ")
                            .append(reason)
                            .append('\n'));
            if (v.lastFault() != null) {
                b.append(v.plugin()).append(' ').append(v.shadowVersion()).append(": last fault: ");
                b.append(v.lastFault()).append('\n');
            }
        }
        return b.toString();
    }

    static String disagreements(List<ShadowView> shadows, String plugin) {
        StringBuilder b = new StringBuilder();
        for (ShadowView v : shadows) {
            if (!v.plugin().equals(plugin)) {
                continue;
            }
            boolean observer = isObserver(v);
            b.append(plugin)
                    .append(' ')
                    .append(v.shadowVersion())
                    .append(observer ? " observing " : " beside ")
                    .append(v.servingVersion())
                    .append(" (")
                    .append(v.state())
                    .append("): ")
                    .append(v.compared() - v.agreed())
                    .append(" of ")
                    .append(v.compared())
                    .append(" pods chose another node\n");
            if (v.last().isEmpty()) {
                continue;
            }
            Table t = observer
                    ? new Table("POD", "PROFILE", "BOUND NODE", "OBSERVER NODE", "NODES (bound | observer)", "SCORES")
                    : new Table("POD", "PROFILE", "SERVING NODE", "SHADOW NODE", "NODES (serving | shadow)", "SCORES");
            for (ShadowView.Disagreement d : v.last()) {
                t.row(
                        d.pod(),
                        d.profile(),
                        d.servingNode(),
                        d.shadowNode() == null ? "(none fits)" : d.shadowNode(),
                        String.join("; ", d.nodes()),
                        String.join("; ", d.scores()));
            }
            b.append(t);
        }
        return b.length() == 0
                ? "No shadow of " + plugin + " on this replica (sched:shadow lists them)\n"
                : b.toString();
    }

    /** An observe-only profile's row (named observe:PROFILE), not a plugin version's. */
    private static boolean isObserver(ShadowView v) {
        return v.plugin().startsWith("observe:");
    }
}
