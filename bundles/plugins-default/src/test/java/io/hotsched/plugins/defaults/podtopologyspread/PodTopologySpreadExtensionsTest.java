package io.hotsched.plugins.defaults.podtopologyspread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.core.runtime.PluginArgsImpl;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.testing.FakeHandle;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** AddPod/RemovePod move the skew, and with it the emptiest domain. */
class PodTopologySpreadExtensionsTest {

    @Test
    void addingPodsToOneZoneClosesItUntilOneIsRemoved() throws Exception {
        NodeInfo a = new NodeInfo(Nodes.node("a").label("zone", "a").build());
        NodeInfo b = new NodeInfo(Nodes.node("b").label("zone", "b").build());
        PodTopologySpread p = PodTopologySpread.create(new PluginArgsImpl(Map.of()), new FakeHandle());
        PodInfo pod =
                PodInfo.of(new PodBuilder(Pods.pod("p").label("app", "web").build())
                        .editSpec()
                        .addNewTopologySpreadConstraint()
                        .withMaxSkew(1)
                        .withTopologyKey("zone")
                        .withWhenUnsatisfiable("DoNotSchedule")
                        .withLabelSelector(new LabelSelectorBuilder()
                                .addToMatchLabels("app", "web")
                                .build())
                        .endTopologySpreadConstraint()
                        .endSpec()
                        .build());
        CycleState state = new CycleState();
        assertTrue(p.preFilter(state, pod, new Snapshot(List.of(a, b))).status().isSuccess());
        assertTrue(p.filter(state, pod, a).isSuccess());

        PodInfo web =
                Pods.pod("web-1").uid("web-1").node("a").label("app", "web").info();
        p.addPod(state, pod, web, a);
        // zone a has 1, zone b 0: another in a would make the skew 2
        assertEquals(
                List.of(PodTopologySpread.ERR_REASON_CONSTRAINTS_NOT_MATCH),
                p.filter(state, pod, a).reasons());
        assertTrue(p.filter(state, pod, b).isSuccess());

        p.removePod(state, pod, web, a);
        assertTrue(p.filter(state, pod, a).isSuccess());
        // a pod of another app does not count
        p.addPod(
                state,
                pod,
                Pods.pod("db").uid("db").node("a").label("app", "db").info(),
                a);
        assertTrue(p.filter(state, pod, a).isSuccess());
    }
}
