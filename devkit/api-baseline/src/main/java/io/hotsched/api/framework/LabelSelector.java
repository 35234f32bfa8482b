package io.hotsched.api.framework;

import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A compiled Kubernetes label selector ({@code matchLabels} and {@code matchExpressions} with In,
 * NotIn, Exists, DoesNotExist), matched without allocation. A null selector in the API matches
 * nothing ({@link #NOTHING}); an empty one matches everything ({@link #EVERYTHING}), as upstream.
 */
public final class LabelSelector {

    /** Matches no labels (a missing selector). */
    public static final LabelSelector NOTHING = new LabelSelector(null);

    /** Matches all labels (an empty selector). */
    public static final LabelSelector EVERYTHING = new LabelSelector(List.of());

    /** One requirement: {@code key op values}. */
    public record Requirement(String key, String operator, Set<String> values) {

        boolean matches(Map<String, String> labels) {
            // immutable maps refuse null look-ups: a requirement without a key finds no label
            String v = key == null ? null : labels.get(key);
            return switch (operator) {
                case "In" -> v != null && values.contains(v);
                case "NotIn" -> v == null || !values.contains(v);
                case "Exists" -> key != null && labels.containsKey(key);
                case "DoesNotExist" -> key == null || !labels.containsKey(key);
                default -> false;
            };
        }
    }

    private final List<Requirement> requirements;

    private LabelSelector(List<Requirement> requirements) {
        this.requirements = requirements;
    }

    /**
     * Compiles a selector. An unknown operator is an error: upstream's API validation would have
     * refused the object.
     */
    public static LabelSelector of(io.fabric8.kubernetes.api.model.LabelSelector s) {
        if (s == null) {
            return NOTHING;
        }
        List<Requirement> reqs = new ArrayList<>();
        if (s.getMatchLabels() != null) {
            // interned, as PodInfo's labels are: matching compares by identity first
            s.getMatchLabels().forEach((k, v) -> reqs.add(new Requirement(k.intern(), "In", Set.of(v.intern()))));
        }
        if (s.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : s.getMatchExpressions()) {
                String op = r.getOperator();
                if (!Set.of("In", "NotIn", "Exists", "DoesNotExist").contains(op)) {
                    throw new IllegalArgumentException(
                            "label selector operator \"" + op + "\" is not one of In, NotIn, Exists, DoesNotExist");
                }
                reqs.add(new Requirement(
                        r.getKey() == null ? null : r.getKey().intern(),
                        op,
                        r.getValues() == null
                                ? Set.of()
                                : Set.copyOf(r.getValues().stream()
                                        .map(String::intern)
                                        .toList())));
            }
        }
        return reqs.isEmpty() ? EVERYTHING : new LabelSelector(List.copyOf(reqs));
    }

    /** This selector with more requirements ANDed (matchLabelKeys and friends). */
    public LabelSelector and(List<Requirement> more) {
        if (requirements == null || more.isEmpty()) {
            return this;
        }
        List<Requirement> all = new ArrayList<>(requirements);
        all.addAll(more);
        return new LabelSelector(List.copyOf(all));
    }

    public boolean matches(Map<String, String> labels) {
        if (requirements == null) {
            return false;
        }
        Map<String, String> l = labels == null ? Map.of() : labels;
        for (int i = 0; i < requirements.size(); i++) {
            if (!requirements.get(i).matches(l)) {
                return false;
            }
        }
        return true;
    }

    public boolean matchesNothing() {
        return requirements == null;
    }

    public boolean matchesEverything() {
        return requirements != null && requirements.isEmpty();
    }

    public List<Requirement> requirements() {
        return requirements == null ? List.of() : requirements;
    }

    @Override
    public String toString() {
        return requirements == null ? "<nothing>" : requirements.toString();
    }
}
