/**
 * Testing a hotsched plugin outside the hotsched repository: {@link io.hotsched.testkit.PluginHarness}
 * runs it through the real scheduler core without OSGi, {@link io.hotsched.testkit.FelixPlatform}
 * installs its bundle into a real platform in this JVM, {@link io.hotsched.testkit.TestArgs} binds
 * args as the scheduler does. Builders ({@code Nodes}, {@code Pods}), the fake handle and the
 * in-memory cluster are in {@code io.hotsched.testing}, which this artifact brings along.
 *
 * <p>A published contract like the API: bnd compares this package with devkit/testkit-baseline on
 * every build, so an incompatible change needs a major bump of the version below.
 */
@Export
@Version("1.0.0")
package io.hotsched.testkit;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
