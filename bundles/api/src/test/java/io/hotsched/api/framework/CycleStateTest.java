package io.hotsched.api.framework;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CycleStateTest {

    static final class Counter implements StateData {
        int n;

        @Override
        public StateData copy() {
            Counter c = new Counter();
            c.n = n;
            return c;
        }
    }

    private static final StateKey<Counter> KEY = StateKey.of("PreFilterTest", Counter.class);

    @Test
    void copyIsDeep() {
        CycleState s = new CycleState();
        Counter c = new Counter();
        c.n = 1;
        s.write(KEY, c);
        CycleState copy = s.copy();
        copy.require(KEY).n = 5;
        assertEquals(1, s.require(KEY).n);
    }

    @Test
    void missingKeyIsNamed() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new CycleState().require(KEY));
        assertEquals("reading \"PreFilterTest\" from cycleState: not found", e.getMessage());
        assertTrue(new CycleState().read(KEY).isEmpty());
    }

    @Test
    void statusBasics() {
        assertTrue(Status.of(Code.SUCCESS) == Status.SUCCESS);
        Status s =
                Status.unschedulable("Insufficient cpu", "Insufficient memory").withPlugin("NodeResourcesFit");
        assertEquals("Insufficient cpu, Insufficient memory", s.message());
        assertEquals("NodeResourcesFit", s.plugin());
        assertTrue(s.isRejection());
        assertTrue(Status.error(new IllegalStateException("boom")).code() == Code.ERROR);
        assertTrue(ClusterEvent.of("Node", ActionType.UPDATE).matches("Node", ActionType.UPDATE_NODE_LABEL));
        assertTrue(!ClusterEvent.of("Node", ActionType.UPDATE).matches("Node", ActionType.ADD));
        assertTrue(ClusterEvent.of("*", ActionType.ADD).matches("Pod", ActionType.ADD));
    }
}
