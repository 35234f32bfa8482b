package io.hotsched.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.core.admin.ExplainView;
import io.hotsched.core.admin.SchedulerAdmin;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What {@code sched:explain} prints of an attempt: the formatting alone, from a recorded view. */
class ExplainCommandTest {

    /** An admin that knows one attempt and nothing else (any other question fails the test). */
    private static SchedulerAdmin knowing(ExplainView view) {
        return (SchedulerAdmin) Proxy.newProxyInstance(
                SchedulerAdmin.class.getClassLoader(), new Class<?>[] {SchedulerAdmin.class}, (proxy, m, args) -> {
                    if (m.getName().equals("explain")) {
                        return Optional.of(view).filter(v -> v.pod().equals(args[0]));
                    }
                    throw new AssertionError("sched:explain asked the admin for " + m.getName());
                });
    }

    @Test
    void eachCallGivenUpOnIsNamedOnce() {
        ExplainView v = new ExplainView(
                "default/web",
                "default-scheduler",
                Instant.parse("2026-12-02T07:00:00Z"),
                2,
                "unschedulable",
                "0/1 nodes are available: 1 Insufficient cpu.",
                Map.of("node-a", "NodeResourcesFit: Insufficient cpu"),
                List.of(),
                List.of("Filter of Slow on node-a after 1000 ms"));
        String out = new SchedCommands(knowing(v)).explain("web");
        assertEquals(1, out.split("Given up: ", -1).length - 1, out);
        assertTrue(out.contains("Given up: Filter of Slow on node-a after 1000 ms\n"), out);
        assertTrue(out.startsWith("default/web: unschedulable (profile default-scheduler, attempt 2, "), out);
    }
}
