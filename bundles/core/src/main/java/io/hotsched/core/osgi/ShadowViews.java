package io.hotsched.core.osgi;

import io.hotsched.core.admin.ShadowView;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.ShadowResult;
import io.hotsched.core.scheduler.Scheduler;
import io.hotsched.core.scheduler.ShadowFigures;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The shadows' figures as {@link ShadowView}s: the shadows running now first appear with no pods yet. */
final class ShadowViews {

    private ShadowViews() {}

    static List<ShadowView> of(Scheduler s) {
        PluginRegistry registry = s.registry();
        for (String name : registry.all().keySet()) {
            Optional<Registration> shadow = registry.shadow(name);
            Optional<Registration> serving = registry.serving(name);
            if (shadow.isPresent() && serving.isPresent()) {
                s.shadows()
                        .figures(
                                name,
                                serving.get().version().toString(),
                                shadow.get().version().toString());
            }
        }
        List<ShadowView> out = new ArrayList<>();
        for (ShadowFigures f : s.shadows().figures()) {
            out.add(view(f, state(s, f)));
        }
        return out;
    }

    private static String state(Scheduler s, ShadowFigures f) {
        if (f.observing()) {
            return s.observingWith(f) ? "observing" : "ended";
        }
        for (Registration r : s.registry().all(f.plugin())) {
            if (r.version().toString().equals(f.shadowVersion()) && s.registry().inShadow(r)) {
                return s.health().quarantined(r) ? "quarantined" : "shadow";
            }
        }
        return "ended";
    }

    private static ShadowView view(ShadowFigures f, String state) {
        List<ShadowView.Disagreement> last = new ArrayList<>();
        for (ShadowResult r : f.lastDisagreements()) {
            List<String> nodes = new ArrayList<>();
            for (ShadowResult.NodeVerdict v : r.filterDiffs()) {
                nodes.add(v.node() + ": " + verdict(v.serving()) + " | " + verdict(v.shadow()));
            }
            List<String> scores = new ArrayList<>();
            for (ShadowResult.ScoreDiff d : r.scoreDiffs()) {
                scores.add(d.node() + ": " + d.serving() + " → " + d.shadow());
            }
            last.add(new ShadowView.Disagreement(
                    r.pod(),
                    r.profile(),
                    r.servingChoice(),
                    r.shadowChoice(),
                    List.copyOf(nodes),
                    List.copyOf(scores)));
        }
        return new ShadowView(
                f.plugin(),
                f.servingVersion(),
                f.shadowVersion(),
                state,
                f.compared(),
                f.agreed(),
                f.faults(),
                f.skippedCpu(),
                f.skippedQueue(),
                f.skippedPending(),
                f.agreement(),
                f.meanServingNanos() / 1000,
                f.meanShadowNanos() / 1000,
                f.shadowCpuNanos() / 1_000_000,
                f.disagreementsByReason(),
                f.lastFault(),
                List.copyOf(last));
    }

    private static String verdict(String reason) {
        return reason == null ? "passes" : "refuses (" + reason + ")";
    }
}
