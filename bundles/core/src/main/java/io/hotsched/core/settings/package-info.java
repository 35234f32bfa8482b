/**
 * The platform settings ({@code etc/*.cfg}, Config Admin) checked before they are used: each value
 * against the type and lower bound of the settings annotation's attribute it configures, with a
 * message naming the file, the field, the value and what would be valid. Used by the core's and the
 * Kubernetes bundle's components.
 */
@Export
@Version("1.0.0")
package io.hotsched.core.settings;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
