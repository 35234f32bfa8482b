/**
 * The scheduler's side of the cluster connection: {@link io.hotsched.api.cluster.ClusterEvents}
 * is how a connection (the Kubernetes bundle, or an in-memory cluster in tests) tells the
 * scheduler what changed; {@link io.hotsched.api.cluster.ClusterBackend} is what the scheduler
 * asks of it. Plugin authors do not need this package.
 */
@Export
@Version("1.3.0")
package io.hotsched.api.cluster;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
