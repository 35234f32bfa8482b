package io.hotsched.core.hostile;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.core.admin.ExplainView;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.testing.InMemoryCluster;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 26's hostile plugins, through the real framework over an in-memory cluster: a plugin that
 * throws, or returns null, at one extension point. Each row is what the pod's owner reads on its
 * PodScheduled condition (or that it is bound); after every row the pod is bound once or still
 * waits (never lost), and another profile still binds. docs/reliability.md lists the rows.
 */
class HostilePluginsTest {

    /** The points that only a pod that fits no node reaches. */
    static final Set<Hostile.Point> UNFITTING = EnumSet.of(Hostile.Point.POST_FILTER, Hostile.Point.AFTER_POST_FILTER);

    static final String UNFIT = "pending: 0/2 nodes are available: 2 Insufficient cpu.";

    static final String PERMIT_REJECTED =
            "pending: rejected pod \"p\" by permit plugin \"Hostile\": held back to reach Unreserve";

    /** The words before ": hostile at POINT" in the error a throw at each point becomes. */
    static final Map<Hostile.Point, String> CALL = Map.ofEntries(
            Map.entry(Hostile.Point.PRE_ENQUEUE, "running PreEnqueue plugin \"Hostile\""),
            Map.entry(Hostile.Point.BEFORE_PRE_FILTER, "running PreFilterTransformer \"Hostile\""),
            Map.entry(Hostile.Point.PRE_FILTER, "running PreFilter plugin \"Hostile\""),
            Map.entry(Hostile.Point.AFTER_PRE_FILTER, "running PreFilterTransformer \"Hostile\""),
            Map.entry(Hostile.Point.BEFORE_FILTER, "running FilterTransformer \"Hostile\""),
            Map.entry(Hostile.Point.FILTER, "running \"Hostile\" filter plugin"),
            Map.entry(Hostile.Point.PRE_SCORE, "running PreScore plugin \"Hostile\""),
            Map.entry(Hostile.Point.BEFORE_SCORE, "running ScoreTransformer \"Hostile\""),
            Map.entry(Hostile.Point.SCORE, "running Score plugin \"Hostile\""),
            Map.entry(Hostile.Point.NORMALIZE_SCORE, "running Normalize on Score plugin \"Hostile\""),
            Map.entry(Hostile.Point.RESERVE, "running Reserve plugin \"Hostile\""),
            Map.entry(Hostile.Point.PERMIT, "running Permit plugin \"Hostile\""),
            Map.entry(Hostile.Point.PRE_BIND, "running PreBind plugin \"Hostile\""),
            Map.entry(Hostile.Point.BIND, "running Bind plugin \"Hostile\""));

    /**
     * A throw where the pod waits on the outcome is the attempt's error, named; a throw at a point
     * that only informs the plugin (AfterPostFilter, Unreserve, PostBind) changes nothing the
     * owner sees, and is counted against the plugin like every other throw.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Hostile.Point.class)
    void aThrowIsTheAttemptsErrorNamingPluginAndPoint(Hostile.Point at) throws Exception {
        String expected = switch (at) {
            case POST_FILTER ->
                UNFIT + " Error running PostFilter plugin Hostile: running PostFilter plugin \"Hostile\":"
                        + " hostile at POST_FILTER";
            case AFTER_POST_FILTER -> UNFIT;
            case UNRESERVE -> PERMIT_REJECTED;
            case POST_BIND -> "bound";
            default -> "pending: " + CALL.get(at) + ": hostile at " + at;
        };
        assertEquals(expected, run(at, Hostile.Mode.THROW, true));
    }

    /**
     * Null means what upstream's nil means (success; PreFilterResult: all nodes; PostFilterResult:
     * unschedulable), except from Bind, where success would count the pod bound with no binding
     * made: an error there.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Hostile.Point.class)
    void nullMeansUpstreamsNilButFromBind(Hostile.Point at) throws Exception {
        String expected = switch (at) {
            case POST_FILTER, AFTER_POST_FILTER -> UNFIT;
            case UNRESERVE -> PERMIT_REJECTED;
            case BIND ->
                "pending: running Bind plugin \"Hostile\": returned no status (null); a binder returns Success"
                        + " once it bound the pod, Skip to leave it to the next binder";
            default -> "bound";
        };
        assertEquals(expected, run(at, Hostile.Mode.NULL, at == Hostile.Point.BIND));
    }

    /** What the pod's owner sees once the scheduler has decided; checks that scheduling goes on. */
    static String run(Hostile.Point at, Hostile.Mode mode, boolean counted) throws Exception {
        return run((args, handle) -> new Hostile(at, mode), UNFITTING.contains(at) ? "100" : "100m", counted);
    }

    /**
     * Registers {@code factory} as "Hostile" first at every point of the default profile, with nodes
     * n1 and n2 (4 cpu) and pod p requesting {@code cpu}; returns what p's owner sees ("bound", or
     * "pending: " and its PodScheduled message) and checks that the plain profile still binds, no pod
     * twice, and whether a failure was {@code counted} against the plugin.
     */
    static String run(PluginFactory factory, String cpu, boolean counted) throws Exception {
        try (SchedulerFixture f = new SchedulerFixture().withBasePlugins()) {
            Registration r = f.add(Hostile.NAME, factory, "1.0.0");
            f.cluster.addNode(Nodes.node("n1").cpu("4").build());
            f.cluster.addNode(Nodes.node("n2").cpu("4").build());
            f.cluster.addPod(Pods.pod("p").cpu(cpu).build());
            f.start(SchedulerFixture.HEADER
                    + SchedulerFixture.profile("default-scheduler", Hostile.NAME)
                    + SchedulerFixture.PLAIN_PROFILE);
            await("p bound or told why", () -> !f.cluster.bindings().isEmpty() || told(f.cluster) != null);
            String seen = seen(f);
            if (counted) {
                await(
                        "the failure counted against the plugin",
                        () -> f.health.counters(r).failures() >= 1);
            }
            f.cluster.addPod(Pods.pod("plain").scheduler("plain").cpu("100m").build());
            await(
                    "the plain profile binds",
                    () -> f.cluster.bindings().stream().anyMatch(b -> b.podKey().equals("default/plain")));
            assertEquals(
                    f.cluster.bindings().size(),
                    f.cluster.bindings().stream()
                            .map(b -> b.podKey())
                            .distinct()
                            .count(),
                    "no pod bound twice");
            assertTrue(
                    f.cluster.pod("default", "p") != null, "p still there: bound, or waiting in the scheduler's queue");
            System.out.println("HOSTILE PLUGIN | " + seen);
            return seen;
        }
    }

    private static PodCondition told(InMemoryCluster cluster) {
        Pod p = cluster.pod("default", "p");
        if (p.getStatus() == null || p.getStatus().getConditions() == null) {
            return null;
        }
        return p.getStatus().getConditions().stream()
                .filter(c -> c.getType().equals("PodScheduled") && c.getStatus().equals("False"))
                .findFirst()
                .orElse(null);
    }

    private static String seen(SchedulerFixture f) {
        if (!f.cluster.bindings().isEmpty()) {
            return "bound";
        }
        String message = told(f.cluster).getMessage();
        ExplainView e = f.scheduler.explain("default/p");
        assertEquals(message, e.message(), "sched:explain says what the pod says");
        return "pending: " + message;
    }
}
