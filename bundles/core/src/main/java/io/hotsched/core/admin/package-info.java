/**
 * What the scheduler shows about itself (plugins, profiles, queue, the last attempt of a pod) and
 * the few things an operator can ask of it (reload the configuration, end a quarantine, run a plugin
 * version in shadow and promote it, here or fleet-wide). Used by
 * the shell commands.
 */
@Export
@Version("1.4.0")
package io.hotsched.core.admin;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
