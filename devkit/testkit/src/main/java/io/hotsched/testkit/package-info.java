/**
 * Testing a hotsched plugin outside the hotsched repository: {@link io.hotsched.testkit.PluginHarness}
 * runs it through the real scheduler core without OSGi, {@link io.hotsched.testkit.FelixPlatform}
 * installs its bundle into a real platform in this JVM, {@link io.hotsched.testkit.TestArgs} binds
 * args as the scheduler does. Builders ({@code Nodes}, {@code Pods}), the fake handle and the
 * in-memory cluster are in {@code io.hotsched.testing}, which this artifact brings along.
 */
package io.hotsched.testkit;
