package io.hotsched.plugins.defaults.interpodaffinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.core.runtime.PluginArgsImpl;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.testing.FakeHandle;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** AddPod/RemovePod keep PreFilter's counts right, as preemption and nominated pods need. */
class InterPodAffinityExtensionsTest {

    @Test
    void addingAndRemovingAPodChangesWhatAntiAffinityAllows() throws Exception {
        NodeInfo n1 = new NodeInfo(
                Nodes.node("n1").label("kubernetes.io/hostname", "n1").build());
        InterPodAffinity p = InterPodAffinity.create(new PluginArgsImpl(Map.of()), new FakeHandle());
        PodInfo pod = PodInfo.of(new PodBuilder(Pods.pod("p").build())
                .editSpec()
                .withNewAffinity()
                .withNewPodAntiAffinity()
                .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withTopologyKey("kubernetes.io/hostname")
                .withLabelSelector(
                        new LabelSelectorBuilder().addToMatchLabels("app", "db").build())
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endPodAntiAffinity()
                .endAffinity()
                .endSpec()
                .build());
        CycleState state = new CycleState();
        assertTrue(p.preFilter(state, pod, new Snapshot(List.of(n1))).status().isSuccess());
        assertTrue(p.filter(state, pod, n1).isSuccess());

        PodInfo db = Pods.pod("db").uid("db").node("n1").label("app", "db").info();
        assertTrue(p.addPod(state, pod, db, n1).isSuccess());
        Status st = p.filter(state, pod, n1);
        assertEquals(List.of(InterPodAffinity.ERR_REASON_ANTI_AFFINITY), st.reasons());

        // a copy of the state (what preemption's dry run works on) is independent of the original
        CycleState copy = state.copy();
        assertTrue(p.removePod(copy, pod, db, n1).isSuccess());
        assertTrue(p.filter(copy, pod, n1).isSuccess());
        assertEquals(
                List.of(InterPodAffinity.ERR_REASON_ANTI_AFFINITY),
                p.filter(state, pod, n1).reasons());
    }
}
