package io.hotsched.core.osgi;

import org.osgi.framework.Bundle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manifest header that puts a plugin bundle's versions in shadow when it arrives:
 * {@code Hotsched-Shadow: true}. The choice travels with the artifact, so every replica that installs
 * it shadows it; the shell ({@code sched:shadow --start}) changes it on one replica.
 */
final class ShadowHeader {

    static final String NAME = "Hotsched-Shadow";
    private static final Logger LOG = LoggerFactory.getLogger(ShadowHeader.class);

    private ShadowHeader() {}

    static boolean inShadow(Bundle bundle) {
        String v = bundle.getHeaders().get(NAME);
        if (v == null || v.isBlank() || "false".equalsIgnoreCase(v.trim())) {
            return false;
        }
        if ("true".equalsIgnoreCase(v.trim())) {
            return true;
        }
        LOG.error(
                "Bundle {} {}: header {}: \"{}\" is neither true nor false; its plugins are not put in shadow",
                bundle.getSymbolicName(),
                bundle.getVersion(),
                NAME,
                v);
        return false;
    }
}
