package io.hotsched.kube.serving;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AlwaysAllowPathsTest {

    @Test
    void exactPathsAndPrefixes() {
        AlwaysAllowPaths p = AlwaysAllowPaths.parse("/healthz, /readyz,/debug/*");
        assertTrue(p.allows("/healthz"));
        assertTrue(p.allows("/readyz"));
        assertFalse(p.allows("/healthz/extra"));
        assertTrue(p.allows("/debug/pprof"));
        assertFalse(p.allows("/metrics"));
        assertFalse(AlwaysAllowPaths.parse("").allows("/healthz"));
    }
}
