package io.hotsched.conformance.loadaware;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hotsched.conformance.runner.BundleCases;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Koordinator's LoadAwareScheduling test tables (conformance data) through this bundle, as packaged. */
class UpstreamCasesTest {

    @Test
    void everyLoadAwareCasePassesOrDivergesOnPurpose() throws Exception {
        BundleCases.Summary s = BundleCases.check(getClass().getClassLoader(), LoadAwarePluginCases.byPlugin());
        assertEquals(Set.of("LoadAwareScheduling"), s.plugins());
    }
}
