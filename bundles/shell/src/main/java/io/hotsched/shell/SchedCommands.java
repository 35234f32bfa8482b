package io.hotsched.shell;

import io.hotsched.core.admin.ExplainView;
import io.hotsched.core.admin.PluginView;
import io.hotsched.core.admin.ProfileView;
import io.hotsched.core.admin.QueueView;
import io.hotsched.core.admin.SchedulerAdmin;
import java.util.Map;
import java.util.Optional;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** The {@code sched:*} Gogo commands. Each returns its text; Gogo prints it. */
@Component(
        service = SchedCommands.class,
        property = {
            "osgi.command.scope=sched",
            "osgi.command.function=plugins",
            "osgi.command.function=profiles",
            "osgi.command.function=queue",
            "osgi.command.function=explain",
            "osgi.command.function=reload",
            "osgi.command.function=release",
            "osgi.command.function=status",
            "osgi.command.function=state",
            "osgi.command.function=shadow",
            "osgi.command.function=promote"
        })
public final class SchedCommands {

    private final SchedulerAdmin admin;

    @Activate
    public SchedCommands(@Reference SchedulerAdmin admin) {
        this.admin = admin;
    }

    @Descriptor(
            "plugins: name, bundle, version, extension points, profiles using it, state (active, standby, quarantined)")
    public String plugins() {
        Table t = new Table("NAME", "BUNDLE", "VERSION", "STATE", "POINTS", "PROFILES", "FAILURES");
        for (PluginView p : admin.plugins()) {
            t.row(
                    p.name(),
                    p.bundle(),
                    p.version(),
                    p.state(),
                    String.join(",", p.points()),
                    String.join(",", p.profiles()),
                    p.failures() == 0 ? "" : p.failures() + (p.lastError() == null ? "" : " (" + p.lastError() + ")"));
        }
        return t.toString();
    }

    @Descriptor("profiles: ready, or the plugins a paused profile waits for")
    public String profiles() {
        Table t = new Table("PROFILE", "STATE", "PLUGINS", "ATTEMPTS");
        for (ProfileView p : admin.profiles()) {
            t.row(p.name(), p.state(), p.plugins(), p.pinned());
        }
        return t.toString();
    }

    @Descriptor("the scheduling queue: counts per sub-queue, and each pod with attempts and last failure")
    public String queue() {
        QueueView q = admin.queue();
        StringBuilder b = new StringBuilder();
        q.counts().forEach((k, v) -> b.append(k).append('=').append(v).append("  "));
        b.append('\n');
        if (!q.pods().isEmpty()) {
            Table t = new Table("POD", "QUEUE", "ATTEMPTS", "REJECTED BY", "LAST FAILURE");
            for (QueueView.Entry e : q.pods()) {
                t.row(e.pod(), e.queue(), e.attempts(), String.join(",", e.rejectedBy()), e.lastFailure());
            }
            b.append(t);
        }
        return b.toString();
    }

    @Descriptor("the last scheduling attempt of a pod: per node the rejecting plugin, or the scores of the best nodes")
    public String explain(@Descriptor("namespace/name (namespace default when omitted)") String pod) {
        String key = pod.contains("/") ? pod : "default/" + pod;
        Optional<ExplainView> v = admin.explain(key);
        if (v.isEmpty()) {
            return "No attempt recorded for " + key
                    + " (not pending for a profile of this scheduler, or not tried yet)\n";
        }
        ExplainView e = v.get();
        StringBuilder b = new StringBuilder();
        b.append(e.pod())
                .append(": ")
                .append(e.outcome())
                .append(" (profile ")
                .append(e.profile())
                .append(", attempt ")
                .append(e.attempt())
                .append(", ")
                .append(e.time())
                .append(")\n");
        if (e.message() != null && !e.message().isEmpty()) {
            b.append(e.message()).append('\n');
        }
        if (!e.rejections().isEmpty()) {
            Table t = new Table("NODE", "REJECTED BY");
            e.rejections().forEach((node, why) -> t.row(node, why));
            b.append(t);
        }
        if (!e.topScores().isEmpty()) {
            Table t = new Table("NODE", "TOTAL", "PLUGIN SCORES (score×weight)");
            for (ExplainView.NodeScores n : e.topScores()) {
                StringBuilder s = new StringBuilder();
                for (Map.Entry<String, String> x : n.byPlugin().entrySet()) {
                    s.append(x.getKey()).append('=').append(x.getValue()).append(' ');
                }
                t.row(n.node(), n.total(), s.toString().trim());
            }
            b.append(t);
        }
        for (String note : e.notes()) {
            b.append("Given up: ").append(note).append('\n');
        }
        return b.toString();
    }

    @Descriptor("reads the configuration file again and applies it, or says why not")
    public String reload() {
        return admin.reload() + "\n";
    }

    @Descriptor("ends the quarantine of a plugin")
    public String release(@Descriptor("plugin name") String plugin) {
        return admin.release(plugin) ? "Released " + plugin + "\n" : plugin + " is not quarantined\n";
    }

    @Descriptor(
            "what a plugin shows of its state, per profile using it (LoadAwareScheduling: per node usage, estimates, deltas, pods)")
    public String state(@Descriptor("plugin name") String plugin) {
        return state(plugin, null);
    }

    @Descriptor("what a plugin shows of its state for one node, per profile using it")
    public String state(@Descriptor("plugin name") String plugin, @Descriptor("node name") String node) {
        Map<String, Object> byProfile = admin.pluginState(plugin, node);
        if (byProfile.isEmpty()) {
            return "no ready profile uses plugin " + plugin
                    + " (sched:plugins lists the plugins, sched:profiles the profiles)";
        }
        StringBuilder b = new StringBuilder();
        byProfile.forEach((profile, state) -> {
            b.append("profile ").append(profile).append(":\n");
            Outline.write(b, state, 1);
        });
        return b.toString();
    }

    @Descriptor("plugin versions in shadow and observe-only profiles on this replica, with their figures")
    public String shadow() {
        return ShadowText.list(admin.shadows());
    }

    @Descriptor(
            "the last pods on which a plugin's shadow (or an observe-only profile, observe:PROFILE) chose another node")
    public String shadow(@Descriptor("plugin name") String plugin) {
        return ShadowText.disagreements(admin.shadows(), plugin);
    }

    @Descriptor("--stop PLUGIN: ends the shadow of a plugin on this replica")
    public String shadow(@Descriptor("--stop") String option, @Descriptor("plugin name") String plugin) {
        if (!"--stop".equals(option)) {
            return "usage: sched:shadow [PLUGIN] | --start PLUGIN VERSION | --stop PLUGIN (not " + option + ")\n";
        }
        return admin.stopShadow(plugin) + "\n";
    }

    @Descriptor("--start PLUGIN VERSION: puts an installed version of a plugin in shadow on this replica")
    public String shadow(
            @Descriptor("--start") String option,
            @Descriptor("plugin name") String plugin,
            @Descriptor("bundle version") String version) {
        if (!"--start".equals(option)) {
            return "usage: sched:shadow [PLUGIN] | --start PLUGIN VERSION | --stop PLUGIN (not " + option + ")\n";
        }
        return admin.startShadow(plugin, version) + "\n";
    }

    @Descriptor("the shadow of a plugin serves on this replica; the version that served stands by")
    public String promote(@Descriptor("plugin name") String plugin) {
        return admin.promote(plugin) + "\n";
    }

    @Descriptor("configuration source, cluster connection, cache size and counters")
    public String status() {
        return admin.status() + "\n";
    }
}
