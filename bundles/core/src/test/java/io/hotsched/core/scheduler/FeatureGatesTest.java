package io.hotsched.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FeatureGatesTest {

    @Test
    void unnamedGatesKeepTheirDefaults() {
        assertTrue(FeatureGates.defaults().enabled(FeatureGates.POP_FROM_BACKOFF_Q));
        assertTrue(FeatureGates.parse("").enabled(FeatureGates.POP_FROM_BACKOFF_Q));
        assertFalse(FeatureGates.parse(" SchedulerPopFromBackoffQ = false ,").enabled(FeatureGates.POP_FROM_BACKOFF_Q));
        assertTrue(FeatureGates.defaults().enabled(FeatureGates.ASYNC_PREEMPTION));
        FeatureGates sync = FeatureGates.parse("SchedulerAsyncPreemption=false");
        assertFalse(sync.enabled(FeatureGates.ASYNC_PREEMPTION));
        assertTrue(sync.enabled(FeatureGates.POP_FROM_BACKOFF_Q));
        assertFalse(sync.known("OpportunisticBatching"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "SchedulerPopFromBackofQ=false|unrecognized feature gate: SchedulerPopFromBackofQ (did you mean "
                        + "SchedulerPopFromBackoffQ?); known: SchedulerAsyncPreemption, SchedulerPopFromBackoffQ",
                "OpportunisticBatching=true|unrecognized feature gate: OpportunisticBatching; known: "
                        + "SchedulerAsyncPreemption, SchedulerPopFromBackoffQ",
                "SchedulerPopFromBackoffQ=yes|invalid value of SchedulerPopFromBackoffQ=yes: must be true or false",
                "SchedulerPopFromBackoffQ|missing bool value for SchedulerPopFromBackoffQ (write "
                        + "SchedulerPopFromBackoffQ=true or SchedulerPopFromBackoffQ=false)"
            })
    void aWrongPairIsNamedWithWhatWouldBeValid(String value, String message) {
        assertEquals(
                message,
                assertThrows(IllegalArgumentException.class, () -> FeatureGates.parse(value))
                        .getMessage());
    }
}
