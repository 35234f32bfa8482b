/**
 * Test support: pod and node builders, and an in-memory cluster. Not for production use.
 *
 * <p>2.0.0: {@link io.hotsched.testing.OnePoint}'s Filter, Score, Permit, PreBind and Bind take the
 * shared {@code OnNode} and {@code OnChosenNode} calls (their own {@code Call} types are gone; a
 * Score lambda returns a long); {@link io.hotsched.testing.Snapshots}.
 *
 * <p>2.1.0: {@link io.hotsched.testing.FakeHandle}'s feature gates, activations and background
 * tasks (API 1.9), and deletions that fail or are watched while in flight.
 */
@Export
@Version("2.1.0")
package io.hotsched.testing;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
