package io.hotsched.core.runtime;

import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.PermitPlugin;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PreEnqueuePlugin;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.ReservePlugin;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.ext.FilterTransformer;
import io.hotsched.api.framework.ext.PreFilterTransformer;
import io.hotsched.api.framework.ext.ScoreTransformer;
import io.hotsched.core.config.ConfigProblem;
import io.hotsched.core.config.ExtensionPoint;
import io.hotsched.core.config.PluginConfig;
import io.hotsched.core.config.PluginRef;
import io.hotsched.core.config.PluginSet;
import io.hotsched.core.config.ProfileConfig;
import io.hotsched.core.extender.Extenders;
import io.hotsched.core.registry.Registration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the framework of one profile from its configuration and the plugin factories present:
 * creates one instance per plugin name (validating its arguments), expands MultiPoint into the
 * extension points each plugin implements (upstream's precedence: a specific extension point over
 * MultiPoint), and checks the profile as upstream does (one QueueSort, at least one Bind).
 */
public final class FrameworkBuilder {

    private static final Logger LOG = LoggerFactory.getLogger(FrameworkBuilder.class);

    /** The outcome of a build. */
    public sealed interface Result permits Built, Missing, Invalid {}

    public record Built(FrameworkImpl framework) implements Result {}

    /** Some configured plugins have no factory yet: the profile waits for them. */
    public record Missing(Set<String> names) implements Result {}

    /** The profile cannot work with these plugins and this configuration. */
    public record Invalid(List<ConfigProblem> problems) implements Result {}

    /** The lists a framework is made of; filled by the builder. */
    private FrameworkBuilder() {}

    /** All plugin names a profile needs (every enabled name at every point, MultiPoint included). */
    public static Set<String> pluginNames(ProfileConfig profile) {
        Set<String> names = new LinkedHashSet<>();
        for (PluginSet set : profile.plugins().values()) {
            for (PluginRef r : set.enabled()) {
                names.add(r.name());
            }
        }
        return names;
    }

    /**
     * @param serving the registration serving a plugin name, if any
     * @param source the configuration file, for problems
     * @param globalPercentage the global percentageOfNodesToScore
     */
    public static Result build(
            ProfileConfig profile,
            String source,
            int globalPercentage,
            Function<String, Optional<Registration>> serving,
            FrameworkServices services) {
        return build(profile, source, globalPercentage, serving, services, Extenders.NONE);
    }

    /**
     * @param extenders the configuration's extenders; resources they manage with
     *        {@code ignoredByScheduler} replace NodeResourcesFit's {@code ignoredResources}, as upstream
     */
    public static Result build(
            ProfileConfig profile,
            String source,
            int globalPercentage,
            Function<String, Optional<Registration>> serving,
            FrameworkServices services,
            Extenders extenders) {
        return build(
                profile,
                source,
                globalPercentage,
                serving,
                name -> Optional.empty(),
                services,
                extenders,
                new WaitingPodsImpl());
    }

    /**
     * @param shadow the registration of a plugin name in shadow, if any: it runs beside the serving
     *     one (see {@link Shadow}); one that cannot be built is logged and left out, never stopping the profile
     * @param waiting the profile's waiting pods, shared by the frameworks it is rebuilt into so that
     *     a plugin of the new one sees the pods still waiting on the old
     */
    public static Result build(
            ProfileConfig profile,
            String source,
            int globalPercentage,
            Function<String, Optional<Registration>> serving,
            Function<String, Optional<Registration>> shadow,
            FrameworkServices services,
            Extenders extenders,
            WaitingPodsImpl waiting) {
        Set<String> names = pluginNames(profile);
        Set<String> missing = new LinkedHashSet<>();
        Map<String, Registration> regs = new LinkedHashMap<>();
        for (String n : names) {
            Optional<Registration> r = serving.apply(n);
            if (r.isEmpty()) {
                missing.add(n);
            } else {
                regs.put(n, r.get());
            }
        }
        if (!missing.isEmpty()) {
            return new Missing(missing);
        }
        HandleImpl handle = new HandleImpl(profile.schedulerName(), services, waiting);
        PluginSlots parts = new PluginSlots();
        parts.profileName = profile.schedulerName();
        parts.extenders = extenders;
        parts.percentageOfNodesToScore =
                profile.percentageOfNodesToScore() != null ? profile.percentageOfNodesToScore() : globalPercentage;
        List<ConfigProblem> problems = new ArrayList<>();
        Map<String, PluginInstance> byName = new LinkedHashMap<>();
        for (Map.Entry<String, Registration> e : regs.entrySet()) {
            String name = e.getKey();
            PluginConfig pc = profile.pluginConfig().get(name);
            try {
                Plugin p = e.getValue().factory().create(new PluginArgsImpl(args(name, pc, extenders)), handle);
                if (p == null) {
                    problems.add(new ConfigProblem(
                            source,
                            0,
                            profile.path() + ".plugins",
                            "plugin " + e.getValue().describe() + " created no instance"));
                    continue;
                }
                PluginInstance inst = new PluginInstance(name, p, e.getValue());
                byName.put(name, inst);
                parts.instances.add(inst);
            } catch (InvalidArgsException ex) {
                int line = pc == null ? 0 : pc.lines().getOrDefault(ex.field(), pc.line());
                String field = pc == null ? profile.path() + ".pluginConfig" : pc.path() + ".args." + ex.field();
                String msg = ex.getMessage().startsWith(ex.field() + ": ")
                        ? ex.getMessage().substring(ex.field().length() + 2)
                        : ex.getMessage();
                problems.add(new ConfigProblem(source, line, field, "plugin " + name + ": " + msg));
            } catch (RuntimeException | LinkageError ex) {
                problems.add(new ConfigProblem(
                        source,
                        pc == null ? 0 : pc.line(),
                        profile.path() + ".plugins",
                        "plugin " + e.getValue().describe() + " failed to start: " + ex
                                // a failed static initializer says why only in its cause
                                + (ex.getCause() != null && ex.getMessage() == null
                                        ? ", caused by " + ex.getCause()
                                        : "")));
            }
        }
        if (problems.isEmpty()) {
            assemble(profile, source, byName, parts, problems);
        }
        if (!problems.isEmpty()) {
            for (PluginInstance i : parts.instances) {
                i.close();
            }
            return new Invalid(problems);
        }
        List<Shadow> shadows = new ArrayList<>();
        List<PluginInstance> owned = new ArrayList<>(parts.instances);
        for (Map.Entry<String, Registration> e : regs.entrySet()) {
            Optional<Registration> sh = shadow.apply(e.getKey());
            if (sh.isPresent() && sh.get().serviceId() != e.getValue().serviceId()) {
                Shadow s = shadow(profile, source, parts, byName, e.getValue(), sh.get(), services, extenders);
                if (s != null) {
                    shadows.add(s);
                    owned.add(s.instance());
                }
            }
        }
        FrameworkImpl f = new FrameworkImpl(parts.frozen(), waiting, services, shadows, owned);
        handle.bind(f);
        return new Built(f);
    }

    /**
     * The framework of {@code shadowReg} in shadow: its own instance where the serving one was, the
     * serving framework's instances elsewhere; null (logged) when it cannot be built.
     */
    private static Shadow shadow(
            ProfileConfig profile,
            String source,
            PluginSlots serving,
            Map<String, PluginInstance> servingByName,
            Registration servingReg,
            Registration shadowReg,
            FrameworkServices services,
            Extenders extenders) {
        String name = shadowReg.name();
        AtomicReference<NodeInfoLister> view = new AtomicReference<>();
        FrameworkServices own = ShadowServices.of(services, view);
        WaitingPodsImpl waiting = new WaitingPodsImpl();
        HandleImpl handle = new HandleImpl(profile.schedulerName(), own, waiting);
        PluginInstance inst;
        try {
            Plugin p = shadowReg
                    .factory()
                    .create(new PluginArgsImpl(args(name, profile.pluginConfig().get(name), extenders)), handle);
            if (p == null) {
                LOG.warn(
                        "Plugin {} in shadow created no instance for profile {}",
                        shadowReg.describe(),
                        profile.schedulerName());
                return null;
            }
            if (!decides(p)) {
                // it would compare equal on every pod: Reserve, Permit and the binding points never run in shadow
                LOG.info("Plugin {} in shadow decides nothing before Reserve: it is not run", shadowReg.describe());
                PluginInstance unused = new PluginInstance(name, p, shadowReg);
                unused.close();
                return null;
            }
            inst = new PluginInstance(name, p, shadowReg);
        } catch (InvalidArgsException | RuntimeException | LinkageError ex) {
            LOG.warn(
                    "Plugin {} in shadow does not start for profile {}: {}",
                    shadowReg.describe(),
                    profile.schedulerName(),
                    ex.toString());
            return null;
        }
        Map<String, PluginInstance> byName = new LinkedHashMap<>(servingByName);
        byName.put(name, inst);
        PluginSlots parts = new PluginSlots();
        parts.profileName = serving.profileName;
        parts.percentageOfNodesToScore = serving.percentageOfNodesToScore;
        parts.instances.addAll(byName.values());
        List<ConfigProblem> problems = new ArrayList<>();
        assemble(profile, source, byName, parts, problems);
        if (!problems.isEmpty()) {
            LOG.warn(
                    "Plugin {} in shadow does not fit profile {}: {}",
                    shadowReg.describe(),
                    profile.schedulerName(),
                    problems.get(0));
            inst.close();
            return null;
        }
        FrameworkImpl f = new FrameworkImpl(parts.frozen(), waiting, own, List.of(), List.of());
        handle.bind(f);
        return new Shadow(name, servingReg, inst, f, view);
    }

    /** Whether {@code p} takes part in the decision a shadow compares: PreFilter to Score, transformers included. */
    private static boolean decides(Plugin p) {
        return p instanceof PreFilterPlugin
                || p instanceof FilterPlugin
                || p instanceof ScorePlugin
                || p instanceof PreScorePlugin
                || p instanceof PreFilterTransformer
                || p instanceof FilterTransformer
                || p instanceof ScoreTransformer;
    }

    private static final String NODE_RESOURCES_FIT = "NodeResourcesFit";

    private static Map<String, Object> args(String plugin, PluginConfig pc, Extenders extenders) {
        Map<String, Object> args = pc == null ? Map.of() : pc.args();
        Set<String> ignored = extenders.ignoredByScheduler();
        if (!NODE_RESOURCES_FIT.equals(plugin) || ignored.isEmpty()) {
            return args;
        }
        // upstream: extender ignored resources take precedence over the profile's
        Map<String, Object> replaced = new LinkedHashMap<>(args);
        replaced.put("ignoredResources", List.copyOf(ignored));
        return replaced;
    }

    private static void assemble(
            ProfileConfig profile,
            String source,
            Map<String, PluginInstance> byName,
            PluginSlots parts,
            List<ConfigProblem> problems) {
        PluginSet multi = profile.plugins(ExtensionPoint.MULTI_POINT);
        for (ExtensionPoint point : ExtensionPoint.configured()) {
            if (point == ExtensionPoint.MULTI_POINT) {
                continue;
            }
            Class<?> type = point.pluginType();
            Class<?> transformerType = point.transformerType();
            PluginSet set = profile.plugins(point);
            List<String> explicit = new ArrayList<>();
            for (PluginRef r : set.enabled()) {
                Plugin p = byName.get(r.name()).plugin();
                boolean isPlugin = type.isInstance(p);
                boolean isTransformer = transformerType != null && transformerType.isInstance(p);
                if (!isPlugin && !isTransformer) {
                    problems.add(new ConfigProblem(
                            source,
                            r.line(),
                            profile.path() + ".plugins." + point.key(),
                            "plugin \"" + r.name() + "\" does not extend " + point.typeName() + " plugin"));
                    continue;
                }
                explicit.add(r.name());
            }
            List<String> ordered = new ArrayList<>();
            if (!set.disablesAll()) {
                Set<String> disabled = new HashSet<>(set.disabled());
                Set<String> overrides = new LinkedHashSet<>();
                Set<String> fromMulti = new LinkedHashSet<>();
                for (PluginRef r : multi.enabled()) {
                    Plugin p = byName.get(r.name()).plugin();
                    if (!type.isInstance(p) && (transformerType == null || !transformerType.isInstance(p))) {
                        continue;
                    }
                    if (disabled.contains(r.name())) {
                        continue;
                    }
                    if (explicit.contains(r.name())) {
                        overrides.add(r.name());
                        continue;
                    }
                    if (!fromMulti.add(r.name())) {
                        problems.add(new ConfigProblem(
                                source,
                                r.line(),
                                profile.path() + ".plugins.multiPoint",
                                "plugin \"" + r.name() + "\" already registered as \"" + point.typeName() + "\""));
                    }
                }
                for (String n : explicit) {
                    if (overrides.contains(n)) {
                        ordered.add(n);
                    }
                }
                ordered.addAll(fromMulti);
                for (String n : explicit) {
                    if (!overrides.contains(n)) {
                        ordered.add(n);
                    }
                }
            } else {
                ordered.addAll(explicit);
            }
            for (String n : ordered) {
                parts.add(point, byName.get(n));
            }
        }
        if (parts.queueSort.size() != 1) {
            problems.add(new ConfigProblem(
                    source,
                    0,
                    profile.path() + ".plugins.queueSort",
                    "only one queue sort plugin required for profile with scheduler name \"" + profile.schedulerName()
                            + "\", but got " + parts.queueSort.size()));
        }
        if (parts.bind.isEmpty()) {
            problems.add(new ConfigProblem(
                    source,
                    0,
                    profile.path() + ".plugins.bind",
                    "at least one bind plugin is needed for profile with scheduler name \"" + profile.schedulerName()
                            + "\""));
        }
        // weights: an explicit Score weight first, then MultiPoint's; 0 means 1
        List<PluginRef> weighted =
                new ArrayList<>(profile.plugins(ExtensionPoint.SCORE).enabled());
        weighted.addAll(multi.enabled());
        for (PluginRef r : weighted) {
            if (!parts.scoreWeights.containsKey(r.name())
                    && byName.get(r.name()).plugin() instanceof ScorePlugin) {
                parts.scoreWeights.put(r.name(), r.weight() == 0 ? 1 : r.weight());
            }
        }
        for (PluginInstance i : parts.instances) {
            Plugin p = i.plugin();
            boolean rejects = p instanceof PreEnqueuePlugin
                    || p instanceof PreFilterPlugin
                    || p instanceof FilterPlugin
                    || p instanceof ReservePlugin
                    || p instanceof PermitPlugin;
            if (!rejects) {
                continue;
            }
            if (p instanceof EnqueueExtensions ext) {
                try {
                    List<ClusterEventWithHint> events = ext.eventsToRegister();
                    parts.enqueueEvents.put(i.name(), events == null ? List.of() : List.copyOf(events));
                } catch (RuntimeException e) {
                    problems.add(new ConfigProblem(
                            source,
                            0,
                            profile.path() + ".plugins",
                            "plugin " + i + " failed to list its cluster events: " + e));
                }
            } else {
                parts.enqueueEvents.put(i.name(), null);
            }
        }
    }
}
