package io.hotsched.conformance.dynamicresources;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hotsched.conformance.runner.BundleCases;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** kube-scheduler's DynamicResources test tables (conformance data: k8s/dynamicresources.json, the plugin's; k8s/dynamicresources-allocator.json, the allocator's) through this bundle. */
class UpstreamCasesTest {

    @Test
    void everyDynamicResourcesCasePassesOrDivergesOnPurpose() throws Exception {
        BundleCases.Summary s = BundleCases.check(getClass().getClassLoader(), DynamicResourcesPluginCases.byPlugin());
        assertEquals(Set.of("DynamicResources"), s.plugins());
        System.out.printf(
                "DynamicResources conformance: %d cases, %d passed, %d diverge on purpose%n",
                s.run(), s.passed(), s.diverged());
    }
}
