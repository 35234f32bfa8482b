package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.events.v1.EventSeriesBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events as kubectl reads them: describe pod and describe node list their events, get events
 * filters by field selectors and prints kubectl's columns, and events.k8s.io/v1 serves the same
 * events as core v1, written, read and watched through either.
 */
class EventsTest {

    @RegisterExtension
    static final ApiServer API = new ApiServer().withNodes("node-e");

    static Kubectl cli;

    @BeforeAll
    static void kubeconfig(@TempDir Path dir) throws Exception {
        cli = new Kubectl(API.kubeconfig(dir));
    }

    private static Pod pod(String name) {
        return API.client()
                .pods()
                .inNamespace("default")
                .resource(TestObjects.pod("default", name))
                .create();
    }

    /** A core v1 event about {@code pod}, as the scheduler's EventRecorder writes one. */
    private static Event schedulerEvent(Pod pod, String type, String reason, String message) {
        String now = Instant.now().toString();
        return core().resource(new EventBuilder()
                        .withNewMetadata()
                        .withNamespace("default")
                        .withName(pod.getMetadata().getName() + "." + reason.toLowerCase())
                        .endMetadata()
                        .withType(type)
                        .withReason(reason)
                        .withMessage(message)
                        .withCount(1)
                        .withFirstTimestamp(now)
                        .withLastTimestamp(now)
                        .withNewInvolvedObject()
                        .withKind("Pod")
                        .withApiVersion("v1")
                        .withNamespace("default")
                        .withName(pod.getMetadata().getName())
                        .withUid(pod.getMetadata().getUid())
                        .endInvolvedObject()
                        .withNewSource()
                        .withComponent("hotsched")
                        .endSource()
                        .withReportingComponent("hotsched")
                        .build())
                .create();
    }

    /** Pods {@code failed} and {@code placed}, with a FailedScheduling and a Scheduled event. */
    private static void failedAndPlaced(String failed, String why, String placed) {
        schedulerEvent(pod(failed), "Warning", "FailedScheduling", why);
        schedulerEvent(pod(placed), "Normal", "Scheduled", "Successfully assigned default/" + placed + " to node-e");
    }

    @Test
    void describePodShowsItsEventsOnly() throws Exception {
        failedAndPlaced("waiting", "0/1 nodes are available: 1 Insufficient cpu.", "placed");

        String described = cli.run("describe", "pod", "waiting").ok().out();
        String events = described.substring(described.indexOf("Events:"));
        assertTrue(events.contains("Warning  FailedScheduling"), described);
        assertTrue(events.contains("hotsched  0/1 nodes are available: 1 Insufficient cpu."), described);
        assertFalse(events.contains("Scheduled  "), described);

        String other = cli.run("describe", "pod", "placed").ok().out();
        assertTrue(other.contains("Normal  Scheduled"), other);
        assertTrue(other.contains("Successfully assigned default/placed to node-e"), other);
    }

    @Test
    void getEventsFiltersByFieldSelectorsAndPrintsKubectlsColumns() throws Exception {
        failedAndPlaced("sel-a", "0/1 nodes are available: 1 node(s) had untolerated taint.", "sel-b");

        String out = cli.run("get", "events", "--field-selector", "involvedObject.name=sel-a")
                .ok()
                .out();
        List<String> lines = out.strip().lines().toList();
        assertEquals(List.of("LAST", "SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"), words(lines.get(0)));
        assertEquals(2, lines.size(), out);
        assertEquals(
                List.of("Warning", "FailedScheduling", "pod/sel-a"),
                words(lines.get(1)).subList(1, 4));

        String byReason = cli.run("get", "events", "--field-selector", "reason=Scheduled,type=Normal", "-o", "wide")
                .ok()
                .out();
        assertTrue(byReason.contains("pod/sel-b"), byReason);
        assertFalse(byReason.contains("pod/sel-a"), byReason);
        assertTrue(byReason.lines().findFirst().orElseThrow().contains("SOURCE"), byReason);
        assertTrue(byReason.contains("hotsched"), byReason);
    }

    @Test
    void getEventsWatchPrintsNewEventsWithTheirColumns() throws Exception {
        Pod late = pod("late");
        schedulerEvent(late, "Warning", "FailedScheduling", "0/1 nodes are available: late.");
        try (Kubectl.Running k = cli.started("get", "events", "-w", "--field-selector", "involvedObject.name=late")) {
            assertTrue(k.line(l -> !l.isBlank()).startsWith("LAST SEEN"));
            assertTrue(k.line(l -> l.contains("pod/late")).contains("FailedScheduling"));
            // another pod's event first: the watch's field selector leaves it out
            schedulerEvent(pod("other"), "Normal", "Scheduled", "Successfully assigned default/other to node-e");
            schedulerEvent(late, "Normal", "Scheduled", "Successfully assigned default/late to node-e");
            String row = k.line(l -> l.contains("Scheduled"));
            assertTrue(row.contains("pod/late") && row.contains("Successfully assigned default/late"), row);
        }
    }

    @Test
    void anEventOfTheNewerApiIsACoreEventToo() throws Exception {
        io.fabric8.kubernetes.api.model.events.v1.Event written = newer().resource(
                        new io.fabric8.kubernetes.api.model.events.v1.EventBuilder()
                                .withNewMetadata()
                                .withName("node-e.ready")
                                .withNamespace("default")
                                .endMetadata()
                                .withEventTime(
                                        new io.fabric8.kubernetes.api.model.MicroTime("2026-01-01T00:00:00.000000Z"))
                                .withReportingController("kubelet")
                                .withReportingInstance("node-e")
                                .withAction("Starting")
                                .withReason("NodeReady")
                                .withType("Normal")
                                .withNote("Node node-e status is now: NodeReady")
                                .withSeries(new EventSeriesBuilder()
                                        .withCount(3)
                                        // MicroTime: six digits, or kubectl cannot read the event
                                        .withLastObservedTime(new io.fabric8.kubernetes.api.model.MicroTime(
                                                java.time.format.DateTimeFormatter.ofPattern(
                                                                "yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
                                                        .withZone(java.time.ZoneOffset.UTC)
                                                        .format(Instant.now())))
                                        .build())
                                .withNewRegarding()
                                .withKind("Node")
                                .withName("node-e")
                                .withUid("node-e")
                                .endRegarding()
                                .build())
                .create();
        assertEquals("Node node-e status is now: NodeReady", written.getNote());

        Event core = core().withName("node-e.ready").get();
        assertEquals("Node node-e status is now: NodeReady", core.getMessage());
        assertEquals("node-e", core.getInvolvedObject().getName());
        assertEquals("kubelet", core.getReportingComponent());

        String described = cli.run("describe", "node", "node-e").ok().out();
        assertTrue(described.contains("Normal  NodeReady"), described);
        assertTrue(described.contains("(x3 over"), described);
        assertTrue(described.contains("Node node-e status is now: NodeReady"), described);

        var byRegarding = API.client()
                .events()
                .v1()
                .events()
                .inAnyNamespace()
                .withField("regarding.name", "node-e")
                .list()
                .getItems();
        assertEquals(1, byRegarding.size(), byRegarding.toString());
        assertEquals("NodeReady", byRegarding.get(0).getReason());

        newer().withName("node-e.ready").edit(e -> {
            e.setNote("edited");
            return e;
        });
        assertEquals("edited", core().withName("node-e.ready").get().getMessage());
        newer().withName("node-e.ready").delete();
        assertNull(core().withName("node-e.ready").get());
    }

    @Test
    void aWatchOfTheNewerApiSeesCoreEventsConverted() throws Exception {
        CompletableFuture<io.fabric8.kubernetes.api.model.events.v1.Event> seen = new CompletableFuture<>();
        try (Watch w = newer().watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, io.fabric8.kubernetes.api.model.events.v1.Event e) {
                if ("watched.failedscheduling".equals(e.getMetadata().getName())) {
                    seen.complete(e);
                }
            }

            @Override
            public void onClose(WatcherException cause) {}
        })) {
            schedulerEvent(pod("watched"), "Warning", "FailedScheduling", "0/1 nodes are available.");
            io.fabric8.kubernetes.api.model.events.v1.Event e = seen.get(30, TimeUnit.SECONDS);
            assertEquals("0/1 nodes are available.", e.getNote());
            assertEquals("watched", e.getRegarding().getName());
            assertEquals("hotsched", e.getReportingController());
            assertEquals(1, e.getDeprecatedCount());
        }
    }

    /** The core v1 events of namespace default. */
    private static io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<
                    Event, io.fabric8.kubernetes.api.model.EventList, io.fabric8.kubernetes.client.dsl.Resource<Event>>
            core() {
        return API.client().v1().events().inNamespace("default");
    }

    /** The events.k8s.io/v1 events of namespace default. */
    private static io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<
                    io.fabric8.kubernetes.api.model.events.v1.Event,
                    io.fabric8.kubernetes.api.model.events.v1.EventList,
                    io.fabric8.kubernetes.client.dsl.Resource<io.fabric8.kubernetes.api.model.events.v1.Event>>
            newer() {
        return API.client().events().v1().events().inNamespace("default");
    }

    private static List<String> words(String line) {
        return List.of(line.trim().split("\\s+"));
    }
}
