package io.hotsched.conformance.defaults;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.conformance.runner.BundleCases;
import java.util.List;
import org.junit.jupiter.api.Test;

/** kube-scheduler's test tables (conformance data) through this bundle's plugins, as packaged. */
class UpstreamCasesTest {

    @Test
    void everyCaseOfTheDefaultPluginsPassesOrDivergesOnPurpose() throws Exception {
        BundleCases.Summary s = BundleCases.check(getClass().getClassLoader(), DefaultPluginCases.byPlugin());
        assertTrue(
                s.plugins()
                        .containsAll(List.of(
                                "NodeResourcesFit",
                                "DefaultPreemption",
                                "VolumeBinding",
                                "VolumeZone",
                                "VolumeRestrictions",
                                "NodeVolumeLimits")),
                s::toString);
    }
}
