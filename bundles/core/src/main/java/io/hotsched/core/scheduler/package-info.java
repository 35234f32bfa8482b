/**
 * The scheduler: the cluster's events in ({@link io.hotsched.core.scheduler.EventHandlers}), one
 * scheduling loop ({@link io.hotsched.core.scheduler.SchedulingCycle}), binding cycles on binding
 * slots ({@link io.hotsched.core.scheduler.BindingCycle}), failures handled and reported
 * ({@link io.hotsched.core.scheduler.FailureHandler}, {@link io.hotsched.core.scheduler.Reporter}),
 * plugin calls past their time-out given up ({@link io.hotsched.core.scheduler.Watchdog}), all
 * built by {@link io.hotsched.core.scheduler.Scheduler}.
 *
 * <h2>The swap protocol</h2>
 *
 * How a plugin bundle is installed, upgraded or removed while pods are scheduled, with no pod lost
 * and none bound twice. The classes that take part, in the order they act:
 *
 * <ol>
 *   <li><b>The bundle changes.</b> FileInstall (configured by {@code io.hotsched.platform}) installs,
 *       updates or uninstalls the jar in {@code deploy/}; SCR registers or unregisters its
 *       {@link io.hotsched.api.framework.PluginFactory} services.
 *   <li><b>The registry hears it.</b> {@link io.hotsched.core.osgi.SchedulerComponent} (dynamic,
 *       greedy, multiple reference) hands each factory, as a
 *       {@link io.hotsched.core.registry.Registration} (name, bundle, version), to
 *       {@link io.hotsched.core.scheduler.Scheduler#pluginAdded} or
 *       {@link io.hotsched.core.scheduler.Scheduler#pluginRemoved}.
 *       {@link io.hotsched.core.registry.PluginRegistry} decides which registration serves each name
 *       (the highest version not quarantined nor stuck, see
 *       {@link io.hotsched.core.registry.PluginHealth}) and tells its listeners the names whose
 *       serving factory may have changed.
 *   <li><b>The profiles are rebuilt.</b> {@link io.hotsched.core.scheduler.ProfileManager} builds,
 *       for each profile using such a name, a new {@link io.hotsched.core.runtime.FrameworkImpl}
 *       through {@link io.hotsched.core.runtime.FrameworkBuilder} (new plugin instances, checked
 *       as a configuration is), and swaps it in with one write; a profile missing a plugin is
 *       paused ({@link io.hotsched.core.scheduler.ProfileState}), never run with fewer plugins.
 *       A profile whose framework already runs the serving and shadow registrations of the name (a
 *       standby version came or went) is left as it is. The frameworks a profile is rebuilt into
 *       share its waiting pods ({@link io.hotsched.core.runtime.WaitingPodsImpl}), so the new
 *       instances see and may allow the pods waiting in Permit on the old ones. The queue then takes the new framework's order and gives every pod of the profile a fresh
 *       chance; a pod popped while its profile is paused is parked, not attempted
 *       ({@link io.hotsched.core.queue.SchedulingQueue#parkWhilePaused}).
 *   <li><b>Attempts finish where they started.</b> Each attempt pins the framework it started with
 *       ({@link io.hotsched.core.scheduler.ProfileManager#pin}) until its binding cycle ends, so that
 *       Reserve and Unreserve reach the same instance. The old framework is retired: it closes its
 *       instances when its last pin is released (the framework's pins). Meanwhile the new
 *       instances serve; what an old instance reserved and has not yet written, it has recorded in
 *       the cache's {@link io.hotsched.api.framework.Reservations}, which the new instances read,
 *       so they do not give the same volume or device again.
 *   <li><b>A leaving bundle waits.</b> {@code pluginRemoved} rejects the pods waiting in Permit on
 *       the retired frameworks that used it, and only the pods waiting on those
 *       ({@link io.hotsched.core.runtime.FrameworkImpl#drain}: Unreserve runs on the old instance
 *       and the pod is requeued), then waits, at most the
 *       plugin removal wait, until those frameworks have closed. When the bundle's stop returns,
 *       none of its code runs any more, and OSGi may refresh it.
 * </ol>
 *
 * <p>Configuration reloads take steps 3 and 4 for every profile; a configuration that does not
 * build changes nothing. The tests that hold the protocol to this are {@code SwapTest} and
 * {@code ConfigReloadTest} (in-process) and the swap-under-load ITs in {@code itests/}.
 */
package io.hotsched.core.scheduler;
