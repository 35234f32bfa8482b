package io.hotsched.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterPlugin;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.Status;
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.config.SchedulerConfig;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.support.TestPlugins;
import io.hotsched.testing.Pods;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** How the PostFilter plugins' results combine, as upstream's RunPostFilterPlugins combines them. */
class PostFilterTest {

    private static PostFilterPlugin returning(String name, PostFilterResult r) {
        return new PostFilterPlugin() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public PostFilterResult postFilter(CycleState state, PodInfo pod, NodeToStatus statuses) {
                return r;
            }
        };
    }

    private static PostFilterResult run(PostFilterResult first, PostFilterResult second) throws Exception {
        PluginRegistry registry = new PluginRegistry(new PluginHealth(0));
        registry.add(
                TestPlugins.registration("PrioritySort", TestPlugins.factory(h -> new TestPlugins.Sort()), "1.0.0"));
        registry.add(TestPlugins.registration("DefaultBinder", TestPlugins.factory(TestPlugins.Binder::new), "1.0.0"));
        registry.add(TestPlugins.registration("First", TestPlugins.factory(h -> returning("First", first)), "1.0.0"));
        registry.add(
                TestPlugins.registration("Second", TestPlugins.factory(h -> returning("Second", second)), "1.0.0"));
        SchedulerConfig c = ConfigParser.parse("""
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                profiles:
                - plugins:
                    multiPoint:
                      enabled: [{name: PrioritySort}, {name: DefaultBinder}]
                      disabled: [{name: "*"}]
                    postFilter:
                      enabled: [{name: First}, {name: Second}]
                """, "s.yaml");
        FrameworkServices services = new FrameworkServices(
                new ParallelizerImpl(1, "t"),
                null,
                Snapshot::new,
                n -> List.of(),
                Executors.newSingleThreadScheduledExecutor());
        FrameworkImpl f = ((FrameworkBuilder.Built)
                        FrameworkBuilder.build(c.profiles().get(0), "s.yaml", 0, registry::serving, services))
                .framework();
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
