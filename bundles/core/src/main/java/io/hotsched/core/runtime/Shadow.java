package io.hotsched.core.runtime;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.core.registry.Registration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One plugin version in shadow beside a profile's framework: a framework of its own in which the
 * shadow's instance takes the serving instance's place and every other plugin is the serving
 * framework's instance. {@link #compare} runs it, after the serving decision and off the loop, over
 * the nodes the serving search evaluated, with a cycle state of its own (so nothing the serving
 * revision wrote, whose classes come from another class loader, reaches it), and stops before
 * anything with effects: no Reserve, Permit or binding, and its handle refuses API writes.
 */
public final class Shadow {

    /** How many differing scores a result keeps. */
    public static final int SCORE_DIFFS_KEPT = 10;

    private final String plugin;
    private final Registration serving;
    private final PluginInstance instance;
    private final FrameworkImpl framework;
    private final AtomicReference<NodeInfoLister> view;

    Shadow(
            String plugin,
            Registration serving,
            PluginInstance instance,
            FrameworkImpl framework,
            AtomicReference<NodeInfoLister> view) {
        this.plugin = plugin;
        this.serving = serving;
        this.instance = instance;
        this.framework = framework;
        this.view = view;
    }

    public String plugin() {
        return plugin;
    }

    public Registration servingRegistration() {
        return serving;
    }

    public Registration shadowRegistration() {
        return instance.registration();
    }

    PluginInstance instance() {
        return instance;
    }

    /**
     * What the shadow would decide for {@code pod}, which the serving version decided as {@code
     * served} on {@code nodes}, the snapshot it searched. Runs on the calling thread.
     *
     * @param pod the pod as it left the queue
     * @param actualNode the node the serving side chose; in observe-only mode the node the pod was bound to
     */
    public ShadowResult compare(PodInfo pod, ScheduleResult served, String actualNode, NodeInfoLister nodes) {
        view.set(nodes);
        try {
            return run(pod, served, actualNode, nodes);
        } finally {
            view.set(null);
        }
    }

    private ShadowResult run(PodInfo pod, ScheduleResult served, String actualNode, NodeInfoLister nodes) {
        Set<String> evaluated = new LinkedHashSet<>(served.scores().nodes());
        evaluated.addAll(served.rejected().keySet());
        FilterPass.Outcome pass = FilterPass.run(framework, pod, nodes, evaluated, served.rejected());
        Map<String, Status> refused = pass.refused();
        ScoreTable scores = pass.scores();
        String fault = pass.fault();
        String choice = pass.pick(served.tieSeed());
        CycleState state = pass.state();
        String own = framework.faults(state).get(instance);
        boolean shadowFault = own != null;
        if (fault == null && own != null) {
            fault = own;
        }
        List<ShadowResult.NodeVerdict> diffs = new ArrayList<>();
        if (fault == null) {
            for (String name : evaluated) {
                Status a = served.rejected().get(name);
                Status b = refused.get(name);
                if ((a == null) != (b == null)) {
                    diffs.add(new ShadowResult.NodeVerdict(name, FilterPass.reason(a), FilterPass.reason(b)));
                }
            }
        }
        List<ShadowResult.ScoreDiff> scoreDiffs = new ArrayList<>();
        int differing = fault == null ? scoreDiffs(served.scores(), scores, scoreDiffs) : 0;
        return new ShadowResult(
                pod.key(),
                framework.profileName(),
                plugin,
                serving.version().toString(),
                instance.registration().version().toString(),
                actualNode,
                choice,
                List.copyOf(diffs),
                List.copyOf(scoreDiffs),
                differing,
                fault,
                shadowFault,
                false,
                List.of());
    }

    /** Fills {@code out} with the nodes on which the plugin's normalized score differs; returns how many. */
    private int scoreDiffs(ScoreTable a, ScoreTable b, List<ShadowResult.ScoreDiff> out) {
        int pa = a.plugins().indexOf(plugin);
        int pb = b.plugins().indexOf(plugin);
        if (pa < 0 || pb < 0) {
            return 0;
        }
        Map<String, Integer> inB = new HashMap<>();
        for (int i = 0; i < b.nodes().size(); i++) {
            inB.put(b.nodes().get(i), i);
        }
        int n = 0;
        for (int i = 0; i < a.nodes().size(); i++) {
            Integer j = inB.get(a.nodes().get(i));
            if (j == null) {
                continue;
            }
            long sa = a.score(pa, i);
            long sb = b.score(pb, j);
            if (sa != sb) {
                n++;
                if (out.size() < SCORE_DIFFS_KEPT) {
                    out.add(new ShadowResult.ScoreDiff(a.nodes().get(i), sa, sb));
                }
            }
        }
        return n;
    }
}
