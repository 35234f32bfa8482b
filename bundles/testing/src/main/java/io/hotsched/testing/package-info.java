/** Test support: pod and node builders, and an in-memory cluster. Not for production use. */
@Export
@Version("1.2.0")
package io.hotsched.testing;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
