/**
 * The scheduling framework: the extension points of kube-scheduler as Java interfaces, and the
 * values plugins and the framework exchange.
 *
 * <p>A plugin is an object that implements {@link io.hotsched.api.framework.Plugin} and one or
 * more extension-point interfaces. A bundle makes it available by registering a
 * {@link io.hotsched.api.framework.PluginFactory} service whose {@code hotsched.plugin.name}
 * property is the plugin's name; the framework builds one instance per scheduling profile that
 * enables the name, and may replace it at any time between two scheduling attempts (when the
 * bundle is updated, or the configuration changes).
 *
 * <p>Semantics follow kube-scheduler's framework: a plugin sees a consistent snapshot of the
 * cluster for one scheduling attempt; {@link io.hotsched.api.framework.Status} codes mean the same
 * as upstream's; reasons are user-visible and should be upstream's strings where a plugin of the
 * same name exists.
 *
 * <p>Interfaces a plugin implements are {@code @ConsumerType}: adding a method to them is a major
 * version change. Interfaces the framework implements are {@code @ProviderType}.
 */
@Export
@Version("1.9.0")
package io.hotsched.api.framework;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
