package io.hotsched.core.scheduler;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.NodeScores;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.PermitResult;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.PreEnqueuePlugin;
import io.hotsched.api.framework.PreFilterExtensions;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.api.framework.ScoreExtensions;
import io.hotsched.api.framework.StateData;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.ext.Transformation;
import io.hotsched.core.support.AllPoints;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.OnePoint;
import io.hotsched.testing.Pods;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One plugin on every extension point and transformer, recording what the framework calls, in
 * which order, for a pod that binds, one that fails Filter everywhere (PostFilter nominates),
 * one gated by PreEnqueue, and one whose bind fails (Unreserve).
 */
class ExtensionPointsTest {

    static final List<String> CALLS = new CopyOnWriteArrayList<>();

    record Count(int n) implements StateData {
        static final StateKey<Count> KEY = StateKey.of("PreFilterRecorder", Count.class);

        @Override
        public StateData copy() {
            return new Count(n);
        }
    }

    static final Set<String> NOMINATED_ONCE = ConcurrentHashMap.newKeySet();

    static final class Recorder implements AllPoints, PreEnqueuePlugin, EnqueueExtensions {
        private final Handle handle;

        Recorder(Handle handle) {
            this.handle = handle;
        }

        private void call(String what, PodInfo pod) {
            CALLS.add(pod.name() + ":" + what);
        }

        @Override
        public String name() {
            return "Recorder";
        }

        @Override
        public Status preEnqueue(PodInfo pod) {
            call("PreEnqueue", pod);
            return pod.labels().containsKey("gate") ? Status.unresolvable("gated") : Status.SUCCESS;
        }

        @Override
        public Transformation beforePreFilter(CycleState state, PodInfo pod) {
            call("BeforePreFilter", pod);
            return Transformation.UNCHANGED;
        }

        @Override
        public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
            call("PreFilter", pod);
            state.write(Count.KEY, new Count(0));
            return PreFilterResult.ALL_NODES;
        }

        @Override
        public Status afterPreFilter(CycleState state, PodInfo pod, PreFilterResult result) {
            call("AfterPreFilter", pod);
            return Status.SUCCESS;
        }

        @Override
        public PreFilterExtensions preFilterExtensions() {
            return this;
        }

        @Override
        public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
            state.write(Count.KEY, new Count(state.require(Count.KEY).n() + 1));
            return Status.SUCCESS;
        }

        @Override
        public Status removePod(CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
            state.write(Count.KEY, new Count(state.require(Count.KEY).n() - 1));
            return Status.SUCCESS;
        }

        @Override
        public Transformation beforeFilter(CycleState state, PodInfo pod, NodeInfo node) {
            return Transformation.UNCHANGED;
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            return pod.labels().containsKey("nowhere") ? Status.unschedulable("node(s) said no") : Status.SUCCESS;
        }

        @Override
        public PostFilterResult postFilter(CycleState state, PodInfo pod, NodeToStatus statuses) {
            call("PostFilter", pod);
            NodeInfo n1 = handle.snapshot().get("n1");
            CycleState copy = state.copy();
            Status st = handle.runPreFilterExtensionAddPod(
                    copy, pod, Pods.pod("victim").info(), n1);
            CALLS.add(pod.name() + ":dryRun " + st.code() + " "
                    + copy.require(Count.KEY).n() + " vs "
                    + state.require(Count.KEY).n());
            // "once" pods are nominated on their first attempt only, so a later attempt cannot undo a test's change
            if (pod.name().startsWith("once") && !NOMINATED_ONCE.add(pod.uid())) {
                return PostFilterResult.of(Status.unschedulable("nominated before"));
            }
            return PostFilterResult.nominated("n1");
        }

        @Override
        public void afterPostFilter(CycleState state, PodInfo pod, NodeToStatus statuses, PostFilterResult result) {
            call("AfterPostFilter " + result.nominatedNodeName(), pod);
        }

        @Override
        public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> feasibleNodes) {
            call("PreScore " + feasibleNodes.size(), pod);
            return Status.SUCCESS;
        }

        @Override
        public Transformation beforeScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
            call("BeforeScore", pod);
            return Transformation.UNCHANGED;
        }

        @Override
        public long score(CycleState state, PodInfo pod, NodeInfo node) {
            return node.name().equals("n2") ? 7 : 3;
        }

        @Override
        public ScoreExtensions scoreExtensions() {
            return this;
        }

        @Override
        public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
            call("Normalize", pod);
            long max = scores.max();
            for (int i = 0; i < scores.size(); i++) {
                scores.set(i, scores.score(i) * 100 / max);
            }
            return Status.SUCCESS;
        }

        @Override
        public Status reserve(CycleState state, PodInfo pod, String nodeName) {
            call("Reserve " + nodeName, pod);
            return Status.SUCCESS;
        }

        @Override
        public void unreserve(CycleState state, PodInfo pod, String nodeName) {
            call("Unreserve " + nodeName, pod);
        }

        @Override
        public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
            call("Permit", pod);
            return PermitResult.ALLOW;
        }

        @Override
        public Status preBind(CycleState state, PodInfo pod, String nodeName) {
            call("PreBind", pod);
            return Status.SUCCESS;
        }

        @Override
        public void postBind(CycleState state, PodInfo pod, String nodeName) {
            call("PostBind " + nodeName, pod);
        }

        @Override
        public List<ClusterEventWithHint> eventsToRegister() {
            return List.of(new ClusterEventWithHint(
                    ClusterEvent.of(ClusterEvent.NODE, ActionType.ADD),
                    (pod, oldObj, newObj) ->
                            ((Node) newObj).getMetadata().getName().startsWith("good")
                                    ? QueueingHint.QUEUE
                                    : QueueingHint.SKIP));
        }
    }

    private final SchedulerFixture f = new SchedulerFixture().withBasePlugins();

    @AfterEach
    void close() {
        f.close();
        CALLS.clear();
    }

    private static final String CONFIG = SchedulerFixture.BASE.replace(
            "      - name: PrioritySort\n",
            "      - name: PrioritySort\n      - name: Recorder\n        weight: 2\n      - name: FailingBinder\n");

    /** The Recorder, and before DefaultBinder a binder that fails pods labelled "failbind"; node n1. */
    private void addPluginsAndN1() {
        f.add("Recorder", (args, handle) -> new Recorder(handle), "1.0.0");
        f.add(new OnePoint.Bind("FailingBinder", (state, pod, node) -> {
            if (pod.labels().containsKey("failbind")) {
                CALLS.add(pod.name() + ":Bind fails");
                return Status.error("bind refused");
            }
            return Status.SKIP;
        }));
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
    }

    private List<String> callsOf(String pod) {
        return CALLS.stream()
                .filter(c -> c.startsWith(pod + ":"))
                .map(c -> c.substring(pod.length() + 1))
                .toList();
    }

    @Test
    void everyExtensionPointRunsInUpstreamsOrder() throws Exception {
        addPluginsAndN1();
        f.cluster.addNode(Nodes.node("n2").cpu("4").build());
        f.start(CONFIG);

        f.cluster.addPod(Pods.pod("ok").cpu("100m").build());
        await("ok bound", () -> f.cluster.bindings().size() == 1);
        await("post bind", () -> callsOf("ok").contains("PostBind n2"));
        assertEquals(
                List.of(
                        "PreEnqueue",
                        "BeforePreFilter",
                        "PreFilter",
                        "AfterPreFilter",
                        "PreScore 2",
                        "BeforeScore",
                        "Normalize",
                        "Reserve n2",
                        "Permit",
                        "PreBind",
                        "PostBind n2"),
                callsOf("ok"));
        assertEquals("n2", f.cluster.bindings().get(0).nodeName(), "Recorder's weight 2 × 100 beats the cpu scores");

        f.cluster.addPod(Pods.pod("nowhere").label("nowhere", "1").cpu("100m").build());
        await("post filter", () -> callsOf("nowhere").stream().anyMatch(c -> c.startsWith("AfterPostFilter")));
        assertEquals(
                List.of(
                        "PreEnqueue",
                        "BeforePreFilter",
                        "PreFilter",
                        "AfterPreFilter",
                        "PostFilter",
                        "dryRun SUCCESS 1 vs 0",
                        "AfterPostFilter n1"),
                callsOf("nowhere"));
        await("nominated", () -> {
            var p = f.cluster.pod("default", "nowhere");
            return p.getStatus() != null && "n1".equals(p.getStatus().getNominatedNodeName());
        });
        assertEquals(
                "0/2 nodes are available: 2 node(s) said no.",
                f.cluster
                        .pod("default", "nowhere")
                        .getStatus()
                        .getConditions()
                        .get(0)
                        .getMessage());

        f.cluster.addPod(Pods.pod("gated").label("gate", "1").cpu("100m").build());
        await("gated", () -> f.scheduler.queue().counts().get("gated") == 1);
        assertEquals(List.of("PreEnqueue"), callsOf("gated"));

        f.cluster.addPod(Pods.pod("badbind").label("failbind", "1").cpu("100m").build());
        await("unreserved", () -> callsOf("badbind").stream().anyMatch(c -> c.startsWith("Unreserve")));
        List<String> bad = callsOf("badbind");
        assertTrue(
                bad.indexOf("Bind fails") > bad.indexOf("PreBind")
                        && bad.indexOf("Unreserve n2") > bad.indexOf("Bind fails"),
                bad.toString());
        await("forgotten", () -> f.scheduler.cache().node("n2").pods().size() == 1);
    }

    @Test
    void aNominationClearedThroughTheApiIsForgotten() throws Exception {
        addPluginsAndN1();
        f.start(CONFIG);
        f.cluster.addPod(
                Pods.pod("once-nowhere").label("nowhere", "1").cpu("100m").build());
        await("nominated in the API", () -> {
            var p = f.cluster.pod("default", "once-nowhere");
            return p.getStatus() != null && "n1".equals(p.getStatus().getNominatedNodeName());
        });
        assertEquals(1, f.scheduler.queue().nominator().forNode("n1").size());
        // a status update that keeps the nomination keeps it in memory
        f.cluster.patchPodStatus(f.cluster.pod("default", "once-nowhere"), p -> {
            p.getMetadata().setAnnotations(Map.of("touched", "1"));
            return p;
        });
        f.cluster.awaitDelivered();
        assertEquals(1, f.scheduler.queue().nominator().forNode("n1").size());

        f.cluster.patchPodStatus(f.cluster.pod("default", "once-nowhere"), p -> {
            p.getStatus().setNominatedNodeName(null);
            return p;
        });
        f.cluster.awaitDelivered();
        assertEquals(List.of(), f.scheduler.queue().nominator().forNode("n1"), "a preemptor took the node back");
    }

    @Test
    void queueingHintsDecideWhichEventsMoveAPod() throws Exception {
        addPluginsAndN1();
        f.start(CONFIG.replace(
                        "      - name: Recorder\n        weight: 2\n", "      - name: Recorder\n        weight: 2\n")
                + "    postFilter:\n      disabled:\n      - name: Recorder\n");
        f.cluster.addPod(Pods.pod("nowhere").label("nowhere", "1").cpu("100m").build());
        await("unschedulable", () -> f.scheduler.queue().counts().get("unschedulable") == 1);
        f.cluster.addNode(Nodes.node("bad-node").cpu("4").build());
        f.cluster.awaitDelivered();
        assertEquals(1, f.scheduler.queue().counts().get("unschedulable"), "the hint said SKIP");
        assertEquals(1, attempts("nowhere"), "the hint said SKIP");
        f.cluster.addNode(Nodes.node("good-node").cpu("4").build());
        // the move is followed at once by a new attempt (activeQ is empty, so backoffQ pops), which
        // sends the pod back to unschedulableQ: the attempt count is what shows the move
        await("a second attempt", () -> attempts("nowhere") == 2);
        await("unschedulable again", () -> f.scheduler.queue().counts().get("unschedulable") == 1);
        assertEquals(2, attempts("nowhere"), "only good-node's hint said QUEUE");
    }

    private long attempts(String pod) {
        return callsOf(pod).stream().filter("PreFilter"::equals).count();
    }
}
