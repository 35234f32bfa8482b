package io.hotsched.plugins.defaults.helper;

import io.hotsched.api.framework.InvalidArgsException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** One resource a scoring plugin weighs ({@code ResourceSpec} of upstream's args), with its weight. */
public record ResourceSpec(String name, long weight) {

    public static final long MAX_WEIGHT = 100;

    /** Upstream's default: cpu and memory, weight 1 each. */
    public static final List<ResourceSpec> DEFAULTS =
            List.of(new ResourceSpec("cpu", 1), new ResourceSpec("memory", 1));

    /**
     * The configured resources after v1 defaulting (none: cpu and memory; weight 0: 1), validated:
     * weights in [1, 100], names given once.
     *
     * @param field the path of the list in the args, for error messages
     */
    public static List<ResourceSpec> defaulted(List<ResourceSpec> configured, String field)
            throws InvalidArgsException {
        if (configured == null || configured.isEmpty()) {
            return DEFAULTS;
        }
        List<ResourceSpec> out = new ArrayList<>(configured.size());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < configured.size(); i++) {
            ResourceSpec r = configured.get(i);
            String at = field + "[" + i + "]";
            if (r == null || r.name() == null || r.name().isEmpty()) {
                throw new InvalidArgsException(at + ".name", "Required value: a resource name");
            }
            long weight = r.weight() == 0 ? 1 : r.weight();
            if (weight < 1 || weight > MAX_WEIGHT) {
                throw new InvalidArgsException(
                        at + ".weight", r.weight(), "resource weight must be in the range [1, " + MAX_WEIGHT + "]");
            }
            if (!seen.add(r.name())) {
                throw new InvalidArgsException(
                        at + ".name", r.name(), "Duplicate value: each resource may be listed once");
            }
            out.add(new ResourceSpec(r.name(), weight));
        }
        return List.copyOf(out);
    }
}
