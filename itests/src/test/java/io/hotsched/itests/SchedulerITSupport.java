package io.hotsched.itests;

import io.hotsched.core.admin.PluginView;
import io.hotsched.core.admin.ProfileView;
import io.hotsched.core.admin.QueueView;
import io.hotsched.core.admin.SchedulerAdmin;
import java.io.IOException;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Map;
import javax.inject.Inject;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;

/** For tests that look at the scheduler the way {@code sched:profiles} and {@code sched:plugins} do. */
public abstract class SchedulerITSupport extends DeployTestSupport {

    @Inject
    protected SchedulerAdmin admin;

    /** The etc/scheduler.yaml the platform boots with: each scenario's own, the rest of the boot is shared. */
    protected abstract String schedulerYaml();

    /** A configuration of one profile, default-scheduler, with {@code plugins} (the YAML under its "plugins:"). */
    static String defaultProfile(String plugins) {
        return """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                profiles:
                - schedulerName: default-scheduler
                """ + (plugins.isEmpty() ? "" : "  plugins:\n" + plugins.indent(4));
    }

    /** Sets these settings of etc/io.hotsched.scheduler.cfg (name to value) through Config Admin, as an edit of the file would. */
    protected void schedulerSettings(Map<String, String> settings) throws IOException {
        ConfigurationAdmin ca = context.getService(context.getServiceReference(ConfigurationAdmin.class));
        Configuration c = ca.getConfiguration("io.hotsched.scheduler", "?");
        Dictionary<String, Object> p = c.getProperties() == null ? new Hashtable<>() : c.getProperties();
        settings.forEach(p::put);
        c.update(p);
    }

    protected String profileState(String profile) {
        return admin.profiles().stream()
                .filter(p -> p.name().equals(profile))
                .map(ProfileView::state)
                .findFirst()
                .orElse("none");
    }

    /**
     * Waits until the scheduling loop has taken pod {@code podKey} from the queue, found its
     * profile paused and set it aside with the pods that wait for the profile: from then on it is
     * not tried again before the profile is ready, so it cannot be bound while the profile stays
     * paused. Returns the pod's queue entry.
     */
    protected QueueView.Entry awaitParked(String podKey, String profile) {
        return await(
                podKey + " set aside while " + profile + " is paused",
                () -> admin.queue().pods().stream()
                        .filter(e -> e.pod().equals(podKey)
                                && e.queue().equals("unschedulable")
                                && e.rejectedBy().contains("profile/" + profile))
                        .findFirst()
                        .orElse(null));
    }

    /** The state column of {@code sched:plugins} for plugin {@code name} from bundle {@code version}, or "". */
    protected String pluginsState(String name, String version) {
        for (String line : sh("sched:plugins").split("\n")) {
            String[] cells = line.trim().split("\\s+");
            // NAME BUNDLE VERSION STATE ...
            if (cells.length >= 4 && cells[0].equals(name) && cells[2].equals(version)) {
                return cells[3];
            }
        }
        return "";
    }

    /** The version of the bundle that serves plugin {@code name} now, or null. */
    protected String servingVersion(String name) {
        // active in the registry is not enough: it serves once a profile's framework was rebuilt with it
        return admin.plugins().stream()
                .filter(p -> p.name().equals(name)
                        && p.state().equals("active")
                        && !p.profiles().isEmpty())
                .map(PluginView::version)
                .findFirst()
                .orElse(null);
    }
}
