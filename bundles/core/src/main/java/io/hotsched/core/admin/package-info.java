/**
 * What the scheduler shows about itself (plugins, profiles, queue, the last attempt of a pod) and
 * the few things an operator can ask of it (reload the configuration, end a quarantine). Used by
 * the shell commands.
 */
@Export
@Version("1.2.0")
package io.hotsched.core.admin;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
