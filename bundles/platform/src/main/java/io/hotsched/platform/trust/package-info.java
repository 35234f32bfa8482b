/**
 * Who may put code into the scheduler ({@link io.hotsched.platform.trust.TrustPolicy}): jar
 * signatures checked against configured trust roots and per-bundle signer rules, shared by plugin
 * delivery through the Kubernetes API and, when configured, the {@code deploy/} folder, so that
 * both accept and refuse the same jars with the same words.
 */
@Export
@Version("1.0.0")
package io.hotsched.platform.trust;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
