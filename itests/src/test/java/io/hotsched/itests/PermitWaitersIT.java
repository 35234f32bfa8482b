package io.hotsched.itests;

import static org.junit.Assert.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hotsched.core.admin.ProfileView;
import io.hotsched.itest.plugins.ItestGang;
import io.hotsched.itest.plugins.ItestVersion;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

/**
 * Issue 7, scenario 3: four pods of a gang of five wait in Permit when the gang plugin's bundle is
 * updated. They are rejected on the old instance (their reservations given back), scheduled again
 * by the new one, and wait there; the fifth arrives and all five are bound by the new version on a
 * node that holds exactly five. Had a rejected pod's reservation leaked in the cache, the five
 * would not fit.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class PermitWaitersIT extends KubeClusterSupport {

    static final String CONFIG = defaultProfile("""
            permit:
              enabled: [{name: ItestGang}]
            preBind:
              enabled: [{name: ItestVersion}]
            """);

    @Override
    protected String schedulerYaml() {
        return CONFIG;
    }

    private Pod member(int i) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("gang-" + i)
                .withNamespace("load")
                .addToLabels(ItestGang.GANG, "g")
                .addToLabels(ItestGang.SIZE, "5")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("registry.k8s.io/pause:3.9")
                .withNewResources()
                .addToRequests("cpu", new Quantity("1"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    private int inFlight() {
        return admin.profiles().stream()
                .filter(p -> p.name().equals("default-scheduler"))
                .mapToInt(ProfileView::pinned)
                .sum();
    }

    /** How many of the first four members {@code sched:explain} shows waiting on Permit. */
    private long waitingInPermit() {
        return IntStream.range(0, 4)
                .mapToObj(i -> admin.explain("load/gang-" + i))
                .filter(e -> e.isPresent() && e.get().outcome().startsWith("waiting on permit"))
                .count();
    }

    /** The members the API server has on a node, read from it (not from an informer). */
    private List<String> boundMembers() {
        return client.pods().inNamespace("load").list().getItems().stream()
                .filter(p -> p.getSpec().getNodeName() != null)
                .map(p -> p.getMetadata().getName())
                .toList();
    }

    @Test
    public void permitWaitersOfAnUpdatedPluginAreRescheduledWithoutLeaks() throws Exception {
        namespace("load");
        nodes("small-", 1, "5");
        dropDefaultPlugins();
        byte[] plugin = itestPlugins();
        drop("itest-plugins.jar", TestBundles.withVersion(plugin, "1.0.0"));
        await("profile ready", () -> profileState("default-scheduler").equals("ready"));

        try (BindingRecorder recorder = new BindingRecorder(client, "load")) {
            for (int i = 0; i < 4; i++) {
                client.pods().inNamespace("load").resource(member(i)).create();
            }
            await("four waiting in Permit on 1.0.0", () -> inFlight() == 4 && waitingInPermit() == 4);
            // Permit holds them until the fifth arrives: the API server has them on no node
            assertEquals("none bound while the gang is incomplete", List.of(), boundMembers());
            assertEquals(0, recorder.bound());

            drop("itest-plugins.jar", TestBundles.withVersion(plugin, "1.0.1"));
            await("1.0.1 serves", () -> "1.0.1".equals(servingVersion(ItestGang.NAME)));
            // rejected on the old instance, they come back and wait on the new one: the node's 5 cpus are free again
            // for them
            await("four waiting in Permit again, on 1.0.1", () -> inFlight() == 4);
            assertEquals(0, recorder.bound());

            client.pods().inNamespace("load").resource(member(4)).create();
            await("the whole gang bound", () -> recorder.bound() == 5);
            long byNew = recorder.inOrder().stream()
                    .filter(b -> "1.0.1".equals(b.annotation(ItestVersion.ANNOTATION)))
                    .count();
            System.out.printf(
                    "scenario 3 (Permit waiters): 4 pods waited in Permit across an update, 5 bound, %d bound twice, 0 lost, "
                            + "%d decided by the new version, in-flight attempts left %d%n",
                    recorder.boundTwice(), byNew, inFlight());
            assertEquals("bound twice", 0, recorder.boundTwice());
            assertEquals("every member was decided by the new version", 5, byNew);
            await("no attempt left in flight", () -> inFlight() == 0);
        }
    }
}
