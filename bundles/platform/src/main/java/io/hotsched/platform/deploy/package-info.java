/**
 * What makes a jar an installable plugin bundle ({@link io.hotsched.platform.deploy.BundleFileCheck}),
 * shared by the {@code deploy/} folder and plugin delivery through the Kubernetes API, so that both
 * refuse the same files with the same words.
 */
@Export
@Version("1.0.0")
package io.hotsched.platform.deploy;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
