package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hotsched.core.admin.ShadowView;
import io.hotsched.itest.plugins.ItestPicky;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

/**
 * Issue 24, observe-only mode as shipped: a second hotsched (the built distribution as a process of
 * its own, its shipped default profile standing in for kube-scheduler) serves {@code
 * default-scheduler} and binds the pods; this one, in Felix with the real bundles, observes them
 * with its profile {@code observer}. It binds none, agrees on every pod while both run the same
 * plugins, and once its ItestPicky version 2 refuses a node, names exactly the pods bound there,
 * with the plugin and its reason.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ObserveOnlyIT extends KubeClusterSupport {

    static final String OBSERVED = "default-scheduler";
    static final String PROFILE = "observer";
    static final String REFUSED = "node-3";
    static final int NODES = 6;
    static final int AGREE = 60;
    static final int LATER = 30;

    static final String CONFIG = """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - schedulerName: observer
              plugins:
                filter:
                  enabled: [{name: ItestPicky}]
              pluginConfig:
              - name: ItestPicky
                args: {refuseFromVersion2: %s}
            """.formatted(REFUSED);

    @Override
    protected String schedulerYaml() {
        return CONFIG;
    }

    private void observe(String schedulerName, String profile) throws Exception {
        // every pod compared: no sampling, and the share of a core the observer may take is not what is tested here
        schedulerSettings(Map.of(
                "observeSchedulerName",
                schedulerName,
                "observeProfile",
                profile,
                "shadowSamplePercent",
                "100",
                "shadowCpuSharePercent",
                "10000"));
    }

    private ShadowView figures() {
        return admin.shadows().stream()
                .filter(v -> v.plugin().equals("observe:" + PROFILE))
                .findFirst()
                .orElse(null);
    }

    private long compared() {
        ShadowView v = figures();
        return v == null ? 0 : v.compared() + v.faults();
    }

    /** A pod of the observed scheduler that fits node {@code node} only, so that both schedulers have one choice. */
    private Pod pinned(String name, String node) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("load")
                .endMetadata()
                .withNewSpec()
                .withSchedulerName(OBSERVED)
                .addToNodeSelector("kubernetes.io/hostname", node)
                .addNewContainer()
                .withName("c")
                .withImage("registry.k8s.io/pause:3.9")
                .withNewResources()
                .addToRequests("cpu", new Quantity("100m"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    private List<Event> scheduled() {
        return client.v1().events().inNamespace("load").list().getItems().stream()
                .filter(e -> "Scheduled".equals(e.getReason()))
                .toList();
    }

    @Test
    public void theObserverBindsNoneAgreesOnEveryPodAndNamesThePodsItsNewVersionRefuses() throws Exception {
        loadCluster(NODES);
        byte[] plugin = itestPlugins();
        drop("itest-plugins-1.jar", TestBundles.withVersion(plugin, "1.0.0"));
        await("the observer's profile ready", () -> profileState(PROFILE).equals("ready"));
        observe(OBSERVED, PROFILE);
        await("observe-only on", () -> admin.status().contains("observe-only: profile " + PROFILE));

        Map<String, String> standIn = Map.of(
                "scheduler.yaml",
                "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                        + "- schedulerName: " + OBSERVED + "\n",
                "io.hotsched.kube.cfg",
                "report = false\ncomponent = stand-in\nleaseName = stand-in\nqps = 0\nburst = 100\n");
        try (BindingRecorder recorder = new BindingRecorder(client, "load");
                ReplicaProcess kubeScheduler =
                        ReplicaProcess.start(context.getProperty("hotsched.master"), "stand-in", standIn)) {
            kubeScheduler.awaitLine("Scheduling started");
            for (int i = 0; i < AGREE; i++) {
                client.pods()
                        .inNamespace("load")
                        .resource(pinned("a-" + i, "node-" + i % NODES))
                        .create();
            }
            await("all bound by the stand-in", Duration.ofSeconds(60), () -> recorder.bound() == AGREE);
            await("every pod compared", Duration.ofSeconds(60), () -> compared() == AGREE);
            ShadowView f = figures();
            assertEquals("disagreements: " + f.last(), AGREE, f.agreed());
            assertEquals("last fault: " + f.lastFault(), 0, f.faults());
            assertEquals(0, f.skippedCpu() + f.skippedQueue() + f.skippedPending());
            assertEquals(OBSERVED, f.servingVersion());
            assertEquals(PROFILE, f.shadowVersion());

            // the observer's version 2 refuses node-3: the pods bound there are the disagreements
            drop("itest-plugins-2.jar", TestBundles.withVersion(plugin, "2.0.0"));
            await("version 2 serves the observer", () -> "2.0.0".equals(servingVersion(ItestPicky.NAME)));
            awaitActive("io.hotsched.itest.plugins", "2.0.0");
            await(
                    "the observer's profile ready again",
                    () -> profileState(PROFILE).equals("ready"));
            for (int i = 0; i < LATER; i++) {
                client.pods()
                        .inNamespace("load")
                        .resource(pinned("b-" + i, "node-" + i % NODES))
                        .create();
            }
            await("the later pods bound", Duration.ofSeconds(60), () -> recorder.bound() == AGREE + LATER);
            await("the later pods compared", Duration.ofSeconds(60), () -> compared() == AGREE + LATER);

            f = figures();
            Set<String> onRefused = recorder.named("b-").stream()
                    .filter(b -> b.node().equals(REFUSED))
                    .map(b -> "load/" + b.pod())
                    .collect(Collectors.toSet());
            assertEquals(LATER / NODES, onRefused.size());
            assertEquals("disagreements: " + f.last(), AGREE + LATER - onRefused.size(), f.agreed());
            Set<String> named = new HashSet<>();
            String reason = "observer refuses: " + ItestPicky.NAME + ": node refused by " + ItestPicky.NAME + " 2.0.0";
            for (ShadowView.Disagreement d : f.last()) {
                named.add(d.pod());
                assertEquals(REFUSED, d.servingNode());
                assertNull("pinned to the node it refuses, no node fits for the observer", d.shadowNode());
                assertEquals(
                        List.of(REFUSED + ": passes | refuses (" + ItestPicky.NAME + ": node refused by "
                                + ItestPicky.NAME + " 2.0.0)"),
                        d.nodes());
            }
            assertEquals(onRefused, named);
            assertEquals(Map.of(reason, (long) onRefused.size()), f.disagreementsByReason());

            // bound once each, and every binding is the stand-in's: the observer wrote no Scheduled event
            assertEquals(0, recorder.boundTwice());
            // events are written after the binding, off its path
            await("a Scheduled event for every pod", () -> scheduled().size() >= AGREE + LATER);
            List<Event> scheduled = scheduled();
            assertEquals(AGREE + LATER, scheduled.size());
            assertTrue(
                    scheduled.stream()
                            .map(Event::getReportingComponent)
                            .distinct()
                            .toList()
                            .toString(),
                    scheduled.stream().allMatch(e -> "stand-in".equals(e.getReportingComponent())));
        }
    }
}
