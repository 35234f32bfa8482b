package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Filter and Score on one node at a time, case by case. */
class ${pluginName}PluginTest {

    /**
     * One case: a node of {@code nodeCpu} already running a pod of {@code usedCpu}, a pod asking
     * for {@code podCpu}; the filter's code and reason, and the score, wanted.
     */
    record Case(String name, ${pluginName}Args args, String nodeCpu, String usedCpu, String podCpu, Code wantCode, String wantReason, long wantScore) {}

    @TestFactory
    Stream<DynamicTest> filterAndScore() {
        ${pluginName}Args spread = ${pluginName}Args.DEFAULTS;
        ${pluginName}Args pack = new ${pluginName}Args(500, "pack");
        return Stream.of(
                        new Case("empty node: most of it stays free", spread, "4", "0", "1", Code.SUCCESS, null, 75),
                        new Case("pack scores the same node low", pack, "4", "0", "1", Code.SUCCESS, null, 25),
                        new Case("exactly the headroom left", spread, "4", "2500m", "1", Code.SUCCESS, null, 12),
                        new Case("less than the headroom left", spread, "4", "2600m", "1", Code.UNSCHEDULABLE, "node would keep less than 500m cpu free", 10),
                        new Case("pod bigger than the node", pack, "1", "0", "2", Code.UNSCHEDULABLE, "node would keep less than 500m cpu free", 100))
                .map(c -> DynamicTest.dynamicTest(c.name(), () -> {
                    ${pluginName}Plugin plugin = new ${pluginName}Plugin(c.args());
                    PodInfo pod = Pods.pod("p").cpu(c.podCpu()).info();
                    NodeInfo node = Nodes.node("n").cpu(c.nodeCpu()).info(Pods.pod("running").node("n").cpu(c.usedCpu()).info());
                    Status status = plugin.filter(new CycleState(), pod, node);
                    assertEquals(c.wantCode(), status.code(), status.toString());
                    if (c.wantReason() != null) {
                        assertEquals(c.wantReason(), status.reasons().get(0));
                    }
                    assertEquals(c.wantScore(), plugin.score(new CycleState(), pod, node));
                }));
    }
}
