package io.hotsched.conformance.dynamicresources;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hotsched.conformance.runner.BundleCases;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** kube-scheduler's DynamicResources test table (conformance data, k8s/dynamicresources.json) through this bundle. */
class UpstreamCasesTest {

    @Test
    void everyDynamicResourcesCasePassesOrDivergesOnPurpose() throws Exception {
        BundleCases.Summary s = BundleCases.check(getClass().getClassLoader(), Map.of());
        assertEquals(Set.of("DynamicResources"), s.plugins());
        System.out.printf(
                "DynamicResources conformance: %d cases, %d passed, %d diverge on purpose%n",
                s.run(), s.passed(), s.diverged());
    }
}
