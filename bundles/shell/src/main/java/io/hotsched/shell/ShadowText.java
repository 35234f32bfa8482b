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
                    + "Hotsched-Shadow: true)\n";
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
            t.row(
                    v.plugin(),
                    v.servingVersion(),
                    v.shadowVersion(),
                    v.state(),
                    v.compared(),
                    String.format(Locale.ROOT, "%.2f%% (%d)", v.agreement() * 100, v.agreed()),
                    v.faults(),
                    v.skippedCpu() + " cpu, " + v.skippedQueue() + " queue",
                    v.meanServingMicros() + " / " + v.meanShadowMicros(),
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
            b.append(plugin)
                    .append(' ')
                    .append(v.shadowVersion())
                    .append(" beside ")
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
            Table t = new Table("POD", "PROFILE", "SERVING NODE", "SHADOW NODE", "NODES (serving | shadow)", "SCORES");
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
}
