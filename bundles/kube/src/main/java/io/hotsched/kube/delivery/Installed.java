package io.hotsched.kube.delivery;

import io.hotsched.platform.trust.TrustPolicy;

/** A SchedulerPlugin's bundle as this replica installed it. */
record Installed(String file, String bundle, String version, String sha256, TrustPolicy.Signer signer) {}
