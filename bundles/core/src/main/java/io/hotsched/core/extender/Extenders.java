package io.hotsched.core.extender;

import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.Extender;
import io.hotsched.api.framework.ExtenderException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.core.config.ExtenderConfig;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The configuration's extenders in upstream's calling order (the ones that are not ignorable
 * first, each group in configuration order), and the three phases the framework runs them in:
 * filter after the Filter plugins, prioritize beside the Score plugins, bind before the Bind
 * plugins. Immutable; a configuration with another extenders list gets a new instance.
 */
public final class Extenders {

    private static final Logger LOG = LoggerFactory.getLogger(Extenders.class);
    /** upstream's MaxNodeScore / MaxExtenderPriority. */
    static final long SCALE = 100 / 10;

    public static final Extenders NONE = new Extenders(List.of(), List.of());

    private final List<ExtenderConfig> configs;
    private final List<HttpExtender> ordered;
    private final List<Extender> api;

    private Extenders(List<ExtenderConfig> configs, List<HttpExtender> ordered) {
        this.configs = configs;
        this.ordered = ordered;
        this.api = List.copyOf(ordered);
    }

    /**
     * The extenders of {@code configs}; {@code previous} is kept (with its open connections) when
     * the list did not change.
     *
     * @throws IllegalArgumentException when an extender's TLS material cannot be read; the message names it
     */
    public static Extenders of(List<ExtenderConfig> configs, Extenders previous) {
        if (configs.isEmpty()) {
            return NONE;
        }
        if (previous != null && previous.configs.equals(configs)) {
            return previous;
        }
        JsonMapper json = HttpExtender.mapper();
        List<HttpExtender> first = new ArrayList<>();
        List<HttpExtender> ignorable = new ArrayList<>();
        for (int i = 0; i < configs.size(); i++) {
            ExtenderConfig c = configs.get(i);
            try {
                (c.ignorable() ? ignorable : first).add(new HttpExtender(c, json));
            } catch (GeneralSecurityException | IOException e) {
                throw new IllegalArgumentException("extenders[" + i + "].tlsConfig: " + e.getMessage(), e);
            }
        }
        first.addAll(ignorable);
        return new Extenders(List.copyOf(configs), List.copyOf(first));
    }

    public boolean isEmpty() {
        return ordered.isEmpty();
    }

    /** The extenders as {@link io.hotsched.api.framework.Handle#extenders()} hands them to plugins. */
    public List<Extender> asApi() {
        return api;
    }

    public List<HttpExtender> all() {
        return ordered;
    }

    /** Resources NodeResourcesFit leaves to the extenders ({@code ignoredByScheduler}). */
    public Set<String> ignoredByScheduler() {
        Set<String> out = new LinkedHashSet<>();
        for (ExtenderConfig c : configs) {
            for (ExtenderConfig.ManagedResource r : c.managedResources()) {
                if (r.ignoredByScheduler()) {
                    out.add(r.name());
                }
            }
        }
        return out;
    }

    public boolean hasFilters() {
        return ordered.stream().anyMatch(HttpExtender::isFilter);
    }

    /** True when an extender with a filter verb is interested in {@code pod}. */
    public boolean filtersFor(PodInfo pod) {
        return ordered.stream().anyMatch(e -> e.isFilter() && e.isInterested(pod));
    }

    public boolean hasPrioritizers() {
        return ordered.stream().anyMatch(HttpExtender::isPrioritizer);
    }

    /**
     * upstream's findNodesThatPassExtenders: each interested extender in turn narrows the feasible
     * nodes; the nodes it fails get its message in {@code statuses} (unresolvable ones first).
     *
     * @throws ExtenderException from an extender that is not ignorable
     */
    public List<NodeInfo> filter(PodInfo pod, List<NodeInfo> feasible, Map<String, Status> statuses) {
        for (HttpExtender e : ordered) {
            if (feasible.isEmpty()) {
                break;
            }
            if (!e.isInterested(pod) || !e.isFilter()) {
                continue;
            }
            HttpExtender.FilterOutcome r;
            try {
                r = e.filter(pod, feasible);
            } catch (ExtenderException ex) {
                if (ignored(e, "", ex)) {
                    continue;
                }
                throw ex;
            }
            r.failedAndUnresolvable()
                    .forEach((node, msg) -> statuses.put(node, Status.of(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, msg)));
            r.failed().forEach((node, msg) -> {
                if (!r.failedAndUnresolvable().containsKey(node)) {
                    statuses.put(node, Status.unschedulable(msg));
                }
            });
            feasible = r.feasible();
        }
        return feasible;
    }

    /**
     * upstream's extender part of prioritizeNodes: the interested prioritizers are called at once;
     * each node's score × weight × 10 is returned per extender; a failing extender adds nothing.
     */
    public List<Scores> prioritize(PodInfo pod, List<NodeInfo> nodes) {
        List<HttpExtender> asked = new ArrayList<>();
        List<CompletableFuture<Map<String, Long>>> answers = new ArrayList<>();
        for (HttpExtender e : ordered) {
            if (e.isPrioritizer() && e.isInterested(pod)) {
                asked.add(e);
                answers.add(e.prioritize(pod, nodes));
            }
        }
        List<Scores> out = new ArrayList<>();
        for (int i = 0; i < asked.size(); i++) {
            HttpExtender e = asked.get(i);
            try {
                Map<String, Long> raw = answers.get(i).join();
                out.add(new Scores(e.name(), raw, e.config().weight() * SCALE));
            } catch (RuntimeException ex) {
                LOG.debug("Prioritize of extender {} failed, ignored as upstream does: {}", e.name(), ex.toString());
            }
        }
        return out;
    }

    /** One extender's prioritize answer: per host its raw score; {@code factor} = weight × 10. */
    public record Scores(String extender, Map<String, Long> raw, long factor) {}

    /**
     * upstream's extendersBinding: the first interested binder binds. An ignorable binder's error
     * lets the Bind plugins bind instead.
     *
     * @return null when no extender bound the pod (the Bind plugins do), else the outcome
     */
    public Status bind(PodInfo pod, String node) {
        for (HttpExtender e : ordered) {
            if (!e.isBinder() || !e.isInterested(pod)) {
                continue;
            }
            try {
                e.bind(pod, node);
                return Status.SUCCESS;
            } catch (ExtenderException ex) {
                if (ignored(e, " in bind", ex)) {
                    continue;
                }
                return Status.error(ex);
            }
        }
        return null;
    }

    /** True (and logged) when the failed extender is ignorable: upstream then goes on without it. */
    private static boolean ignored(HttpExtender e, String where, ExtenderException ex) {
        if (e.isIgnorable()) {
            LOG.info(
                    "Skipping extender {}{} as it returned error and has ignorable flag set: {}",
                    e.name(),
                    where,
                    ex.getMessage());
        }
        return e.isIgnorable();
    }
}
