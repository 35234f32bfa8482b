package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.testkit.TestArgs;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Defaulting and validation of the args, bound as the scheduler binds a profile's pluginConfig. */
class ${pluginName}ArgsTest {

    /** One case: the args as written, and the args or the error (a part of its message) wanted. */
    record Case(String name, Map<String, Object> written, ${pluginName}Args want, String wantError) {}

    @TestFactory
    Stream<DynamicTest> args() {
        return Stream.of(
                        new Case("no args: the defaults", Map.of(), ${pluginName}Args.DEFAULTS, null),
                        new Case("minFreeMilliCpu given", Map.of("minFreeMilliCpu", 1000), new ${pluginName}Args(1000, "spread"), null),
                        new Case("zero headroom is allowed", Map.of("minFreeMilliCpu", 0), new ${pluginName}Args(0, "spread"), null),
                        new Case("pack", Map.of("strategy", "pack"), new ${pluginName}Args(500, "pack"), null),
                        new Case("negative headroom", Map.of("minFreeMilliCpu", -1), null, "minFreeMilliCpu: invalid value -1: must be 0 or more"),
                        new Case("unknown strategy", Map.of("strategy", "fill"), null, "strategy: invalid value \"fill\": one of spread, pack"),
                        new Case("unknown field", Map.of("minFree", 1), null, "minFree"),
                        new Case("wrong type", Map.of("minFreeMilliCpu", "lots"), null, "minFreeMilliCpu"))
                .map(c -> DynamicTest.dynamicTest(c.name(), () -> {
                    if (c.wantError() == null) {
                        assertEquals(c.want(), ${pluginName}Args.from(TestArgs.of(c.written())));
                    } else {
                        InvalidArgsException e = assertThrows(
                                InvalidArgsException.class, () -> ${pluginName}Args.from(TestArgs.of(c.written())));
                        assertTrue(e.getMessage().contains(c.wantError()), e.getMessage());
                    }
                }));
    }
}
