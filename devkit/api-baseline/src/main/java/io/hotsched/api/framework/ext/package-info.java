/**
 * Koordinator's transformers: plugins that may replace the pod or the node the other plugins of
 * an extension point see, without changing the cluster cache (for example, to take reserved
 * resources off a node's allocatable). A transformer runs only where its name is enabled in the
 * profile (PreFilter, Filter, Score, PostFilter), in that extension point's configured order,
 * before the plugins of the point.
 */
@Export
@Version("1.2.0")
package io.hotsched.api.framework.ext;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
