package io.hotsched.core.runtime;

import io.hotsched.api.framework.BindPlugin;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.PermitPlugin;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PostBindPlugin;
import io.hotsched.api.framework.PostFilterPlugin;
import io.hotsched.api.framework.PreBindPlugin;
import io.hotsched.api.framework.PreEnqueuePlugin;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.QueueSortPlugin;
import io.hotsched.api.framework.ReservePlugin;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.ext.FilterTransformer;
import io.hotsched.api.framework.ext.PostFilterTransformer;
import io.hotsched.api.framework.ext.PreFilterTransformer;
import io.hotsched.api.framework.ext.ScoreTransformer;
import io.hotsched.core.config.ExtensionPoint;
import io.hotsched.core.extender.Extenders;
import io.hotsched.core.registry.Registration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The plugins of one profile at each extension point, in the order they run, with the score
 * weights and the cluster events each plugin registered. Filled by {@link FrameworkBuilder}, then
 * {@link #frozen() frozen} for the framework, which never changes it.
 */
final class PluginSlots {

    String profileName;
    int percentageOfNodesToScore;
    Extenders extenders = Extenders.NONE;
    final List<PluginInstance> instances;
    final List<Slot<PreEnqueuePlugin>> preEnqueue;
    final List<Slot<QueueSortPlugin>> queueSort;
    final List<Slot<PreFilterTransformer>> preFilterTransformers;
    final List<Slot<PreFilterPlugin>> preFilter;
    final List<Slot<FilterTransformer>> filterTransformers;
    final List<Slot<FilterPlugin>> filter;
    final List<Slot<PostFilterPlugin>> postFilter;
    final List<Slot<PostFilterTransformer>> postFilterTransformers;
    final List<Slot<PreScorePlugin>> preScore;
    final List<Slot<ScoreTransformer>> scoreTransformers;
    final List<Slot<ScorePlugin>> score;
    final Map<String, Integer> scoreWeights;
    final List<Slot<ReservePlugin>> reserve;
    final List<Slot<PermitPlugin>> permit;
    final List<Slot<PreBindPlugin>> preBind;
    final List<Slot<BindPlugin>> bind;
    final List<Slot<PostBindPlugin>> postBind;
    /** By plugin name; a null list means "every event" (the plugin registered no EnqueueExtensions). */
    final Map<String, List<ClusterEventWithHint>> enqueueEvents;

    PluginSlots() {
        instances = new ArrayList<>();
        preEnqueue = new ArrayList<>();
        queueSort = new ArrayList<>();
        preFilterTransformers = new ArrayList<>();
        preFilter = new ArrayList<>();
        filterTransformers = new ArrayList<>();
        filter = new ArrayList<>();
        postFilter = new ArrayList<>();
        postFilterTransformers = new ArrayList<>();
        preScore = new ArrayList<>();
        scoreTransformers = new ArrayList<>();
        score = new ArrayList<>();
        scoreWeights = new LinkedHashMap<>();
        reserve = new ArrayList<>();
        permit = new ArrayList<>();
        preBind = new ArrayList<>();
        bind = new ArrayList<>();
        postBind = new ArrayList<>();
        enqueueEvents = new LinkedHashMap<>();
    }

    private PluginSlots(PluginSlots p) {
        profileName = p.profileName;
        percentageOfNodesToScore = p.percentageOfNodesToScore;
        extenders = p.extenders;
        instances = List.copyOf(p.instances);
        preEnqueue = List.copyOf(p.preEnqueue);
        queueSort = List.copyOf(p.queueSort);
        preFilterTransformers = List.copyOf(p.preFilterTransformers);
        preFilter = List.copyOf(p.preFilter);
        filterTransformers = List.copyOf(p.filterTransformers);
        filter = List.copyOf(p.filter);
        postFilter = List.copyOf(p.postFilter);
        postFilterTransformers = List.copyOf(p.postFilterTransformers);
        preScore = List.copyOf(p.preScore);
        scoreTransformers = List.copyOf(p.scoreTransformers);
        score = List.copyOf(p.score);
        scoreWeights = Map.copyOf(p.scoreWeights);
        reserve = List.copyOf(p.reserve);
        permit = List.copyOf(p.permit);
        preBind = List.copyOf(p.preBind);
        bind = List.copyOf(p.bind);
        postBind = List.copyOf(p.postBind);
        // not Map.copyOf: a null value means "every event"
        enqueueEvents = Collections.unmodifiableMap(new LinkedHashMap<>(p.enqueueEvents));
    }

    /** An unmodifiable copy. */
    PluginSlots frozen() {
        return new PluginSlots(this);
    }

    /** Places {@code i} at {@code point}: as a plugin, a transformer, or both, as it implements them. */
    void add(ExtensionPoint point, PluginInstance i) {
        Plugin p = i.plugin();
        switch (point) {
            case PRE_ENQUEUE -> addIf(preEnqueue, PreEnqueuePlugin.class, i);
            case QUEUE_SORT -> addIf(queueSort, QueueSortPlugin.class, i);
            case PRE_FILTER -> {
                addIf(preFilterTransformers, PreFilterTransformer.class, i);
                addIf(preFilter, PreFilterPlugin.class, i);
            }
            case FILTER -> {
                addIf(filterTransformers, FilterTransformer.class, i);
                addIf(filter, FilterPlugin.class, i);
            }
            case POST_FILTER -> {
                addIf(postFilterTransformers, PostFilterTransformer.class, i);
                addIf(postFilter, PostFilterPlugin.class, i);
            }
            case PRE_SCORE -> addIf(preScore, PreScorePlugin.class, i);
            case SCORE -> {
                addIf(scoreTransformers, ScoreTransformer.class, i);
                addIf(score, ScorePlugin.class, i);
            }
            case RESERVE -> addIf(reserve, ReservePlugin.class, i);
            case PERMIT -> addIf(permit, PermitPlugin.class, i);
            case PRE_BIND -> addIf(preBind, PreBindPlugin.class, i);
            case BIND -> addIf(bind, BindPlugin.class, i);
            case POST_BIND -> addIf(postBind, PostBindPlugin.class, i);
            default -> throw new IllegalArgumentException("no plugins are configured at " + point + ": " + p.name());
        }
    }

    private static <T> void addIf(List<Slot<T>> slots, Class<T> type, PluginInstance i) {
        if (type.isInstance(i.plugin())) {
            slots.add(new Slot<>(i.name(), type.cast(i.plugin()), i));
        }
    }

    private static final String TRANSFORMER = "Transformer";

    /** Which extension points each plugin serves, by configured name (for the shell). */
    Map<String, List<String>> pointsByPlugin() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        addPoints(out, ExtensionPoint.PRE_ENQUEUE.label(), preEnqueue);
        addPoints(out, ExtensionPoint.QUEUE_SORT.label(), queueSort);
        addPoints(out, ExtensionPoint.PRE_FILTER.label(), preFilter);
        addPoints(out, ExtensionPoint.PRE_FILTER.label() + TRANSFORMER, preFilterTransformers);
        addPoints(out, ExtensionPoint.FILTER.label() + TRANSFORMER, filterTransformers);
        addPoints(out, ExtensionPoint.FILTER.label(), filter);
        addPoints(out, ExtensionPoint.POST_FILTER.label(), postFilter);
        addPoints(out, ExtensionPoint.POST_FILTER.label() + TRANSFORMER, postFilterTransformers);
        addPoints(out, ExtensionPoint.PRE_SCORE.label(), preScore);
        addPoints(out, ExtensionPoint.SCORE.label() + TRANSFORMER, scoreTransformers);
        addPoints(out, ExtensionPoint.SCORE.label(), score);
        addPoints(out, ExtensionPoint.RESERVE.label(), reserve);
        addPoints(out, ExtensionPoint.PERMIT.label(), permit);
        addPoints(out, ExtensionPoint.PRE_BIND.label(), preBind);
        addPoints(out, ExtensionPoint.BIND.label(), bind);
        addPoints(out, ExtensionPoint.POST_BIND.label(), postBind);
        return out;
    }

    private static void addPoints(Map<String, List<String>> out, String point, List<? extends Slot<?>> slots) {
        for (Slot<?> s : slots) {
            out.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(point);
        }
    }

    /** Whether an instance from {@code registration} is among these plugins. */
    boolean uses(Registration registration) {
        for (PluginInstance i : instances) {
            if (i.registration() != null && i.registration().serviceId() == registration.serviceId()) {
                return true;
            }
        }
        return false;
    }
}
