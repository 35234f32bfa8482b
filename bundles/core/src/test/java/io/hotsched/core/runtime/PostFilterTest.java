package io.hotsched.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.Status;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.testing.OnePoint;
import io.hotsched.testing.Pods;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the PostFilter plugins' results combine, as upstream's RunPostFilterPlugins combines them. */
class PostFilterTest {

    private static PostFilterResult run(PostFilterResult first, PostFilterResult second) throws Exception {
        PluginRegistry registry = TestFrameworks.registry(
                TestFrameworks.plugin("First", h -> new OnePoint.PostFilter("First", (state, pod, statuses) -> first)),
                TestFrameworks.plugin(
                        "Second", h -> new OnePoint.PostFilter("Second", (state, pod, statuses) -> second)));
        FrameworkImpl f = TestFrameworks.build(TestFrameworks.PLUGINS + """
                    multiPoint:
                      enabled: [{name: PrioritySort}, {name: DefaultBinder}]
                      disabled: [{name: "*"}]
                    postFilter:
                      enabled: [{name: First}, {name: Second}]
                """, registry, TestFrameworks.services(1));
        return f.runPostFilter(
                new CycleState(), Pods.pod("p").info(), new NodeToStatus(Map.of(), Status.unschedulable("x")));
    }

    @Test
    void aRejectionThatClearsTheNominationKeepsItThroughLaterRejections() throws Exception {
        PostFilterResult r = run(
                new PostFilterResult(Status.unschedulable("preemption: no"), ""),
                PostFilterResult.of(Status.unschedulable("other: no")));
        assertEquals("", r.nominatedNodeName());
        assertEquals(List.of("preemption: no", "other: no"), r.status().reasons());
        assertEquals("First", r.status().plugin(), "the first rejecting plugin is named");
    }

    @Test
    void successStopsAtThePluginThatNominated() throws Exception {
        PostFilterResult r = run(PostFilterResult.of(Status.unschedulable("no")), PostFilterResult.nominated("n1"));
        assertTrue(r.status().isSuccess());
        assertEquals("n1", r.nominatedNodeName());
    }

    @Test
    void rejectionsWithoutNominationLeaveItAlone() throws Exception {
        PostFilterResult r =
                run(PostFilterResult.of(Status.unschedulable("a")), PostFilterResult.of(Status.unschedulable("b")));
        assertNull(r.nominatedNodeName());
        assertEquals("a, b", r.status().message());
    }
}
