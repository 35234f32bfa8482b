package io.hotsched.kube.delivery;

import io.hotsched.platform.trust.TrustPolicy;

/**
 * A SchedulerPlugin's bundle as this replica installed it, and whether this replica has put it in
 * shadow for the object's {@code spec.shadow}.
 */
record Installed(String file, String bundle, String version, String sha256, TrustPolicy.Signer signer, boolean shadow) {

    Installed withShadow(boolean on) {
        return new Installed(file, bundle, version, sha256, signer, on);
    }
}
