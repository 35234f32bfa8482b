package io.hotsched.conformance.deviceshare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hotsched.conformance.runner.BundleCases;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Koordinator's DeviceShare test tables (conformance data) through this bundle, as packaged. */
class UpstreamCasesTest {

    @Test
    void everyDeviceShareCasePassesOrDivergesOnPurpose() throws Exception {
        BundleCases.Summary s = BundleCases.check(getClass().getClassLoader(), DeviceSharePluginCases.byPlugin());
        assertEquals(Set.of("DeviceShare"), s.plugins());
    }
}
