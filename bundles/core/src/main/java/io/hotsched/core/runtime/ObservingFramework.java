package io.hotsched.core.runtime;

import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.core.config.ProfileConfig;
import io.hotsched.core.registry.Registration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * A profile's plugins deciding for the pods of another scheduler, acting on nothing: instances of
 * their own, built with a handle whose cluster client refuses every write and whose snapshot is
 * the one {@link #decide} is given. Only PreFilter to Score run ({@link FilterPass}), through the
 * same guarded calls as the serving path; Reserve, Permit and binding never do, nor extenders.
 */
public final class ObservingFramework {

    private final FrameworkImpl framework;
    private final AtomicReference<NodeInfoLister> view;

    private ObservingFramework(FrameworkImpl framework, AtomicReference<NodeInfoLister> view) {
        this.framework = framework;
        this.view = view;
    }

    /**
     * The framework of {@code profile} for observing.
     *
     * @throws IllegalStateException when the profile does not build (a plugin missing or refusing its args)
     */
    public static ObservingFramework build(
            ProfileConfig profile,
            String source,
            Function<String, Optional<Registration>> serving,
            FrameworkServices services) {
        AtomicReference<NodeInfoLister> view = new AtomicReference<>();
        FrameworkServices own = ShadowServices.of(services, view, "an observe-only profile");
        FrameworkBuilder.Result r = FrameworkBuilder.build(profile, source, 100, serving, own);
        if (r instanceof FrameworkBuilder.Built b) {
            return new ObservingFramework(b.framework(), view);
        }
        if (r instanceof FrameworkBuilder.Missing m) {
            throw new IllegalStateException(
                    "profile " + profile.schedulerName() + " waits for plugin(s) " + String.join(", ", m.names()));
        }
        throw new IllegalStateException("profile " + profile.schedulerName() + " does not build: "
                + ((FrameworkBuilder.Invalid) r).problems().get(0));
    }

    public String profileName() {
        return framework.profileName();
    }

    /** Takes the framework for one decision; false once it is closed (a newer one took its place). */
    public boolean pin() {
        return framework.pin();
    }

    public void unpin() {
        framework.unpin();
    }

    /** Out of service: its instances close once no decision holds it. */
    public void retire() {
        framework.retire();
    }

    /** Whether the profile's PreEnqueue plugins let the pod in (a pod with scheduling gates waits). */
    public boolean admits(PodInfo pod) {
        return framework.runPreEnqueuePlugins(pod).isSuccess();
    }

    /** What the profile decides for {@code pod} over every node of {@code nodes}; on the calling thread. */
    public Decision decide(PodInfo pod, NodeInfoLister nodes, long tieSeed) {
        List<String> names = new ArrayList<>();
        for (NodeInfo n : nodes.list()) {
            names.add(n.name());
        }
        view.set(nodes);
        try {
            FilterPass.Outcome pass = FilterPass.run(framework, pod, nodes, names, Map.of());
            String fault = pass.fault();
            if (fault == null && !framework.faults(pass.state()).isEmpty()) {
                fault = framework.faults(pass.state()).values().iterator().next();
            }
            return new Decision(pod.key(), framework.profileName(), pass, fault, tieSeed);
        } finally {
            view.set(null);
        }
    }

    /** One pod's decision, to be compared with the node another scheduler bound it to. */
    public static final class Decision {

        private final String pod;
        private final String profile;
        private final FilterPass.Outcome pass;
        private final String fault;
        private final long tieSeed;

        Decision(String pod, String profile, FilterPass.Outcome pass, String fault, long tieSeed) {
            this.pod = pod;
            this.profile = profile;
            this.pass = pass;
            this.fault = fault;
            this.tieSeed = tieSeed;
        }

        /**
         * The comparison with {@code bound}, the node {@code observed} bound the pod to (null when it
         * found none). A node bound that ties with the observer's best total agrees: a random tie is
         * no disagreement.
         */
        public ShadowResult against(String observed, String bound) {
            List<ShadowResult.NodeVerdict> diffs = new ArrayList<>();
            List<String> favouring = new ArrayList<>();
            String choice = null;
            if (fault == null) {
                ScoreTable scores = pass.scores();
                int b = bound == null ? -1 : scores.nodes().indexOf(bound);
                Status refused = bound == null ? null : pass.refused().get(bound);
                if (bound == null) {
                    // nothing to say per node: the other scheduler refused them all
                } else if (refused != null) {
                    diffs.add(new ShadowResult.NodeVerdict(bound, null, FilterPass.reason(refused)));
                } else if (b < 0) {
                    diffs.add(new ShadowResult.NodeVerdict(bound, null, "not a node the observer knows"));
                }
                choice = b >= 0 && scores.total(b) == best(scores) ? bound : pass.pick(tieSeed);
                int c = choice == null ? -1 : scores.nodes().indexOf(choice);
                if (b >= 0 && c >= 0 && c != b) {
                    for (int p = 0; p < scores.plugins().size(); p++) {
                        if (scores.score(p, c) * scores.weight(p) > scores.score(p, b) * scores.weight(p)) {
                            favouring.add(scores.plugins().get(p));
                        }
                    }
                }
            }
            return new ShadowResult(
                    pod,
                    profile,
                    "observe:" + profile,
                    observed,
                    profile,
                    bound,
                    choice,
                    List.copyOf(diffs),
                    List.of(),
                    0,
                    fault,
                    false,
                    true,
                    List.copyOf(favouring));
        }

        private static long best(ScoreTable scores) {
            long max = Long.MIN_VALUE;
            for (int i = 0; i < scores.nodes().size(); i++) {
                max = Math.max(max, scores.total(i));
            }
            return max;
        }
    }
}
