package io.hotsched.core.registry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugin factories present, by plugin name. Several may serve one name (two versions side by
 * side): the highest bundle version serves, the others stand by. A quarantined registration does
 * not serve. Listeners hear the name whose serving factory may have changed.
 */
public final class PluginRegistry {

    private static final Comparator<Registration> PREFERRED = Comparator.comparing(
                    Registration::version, Comparator.reverseOrder())
            .thenComparingLong(Registration::serviceId);

    private static final Logger LOG = LoggerFactory.getLogger(PluginRegistry.class);

    private final Map<String, List<Registration>> byName = new ConcurrentHashMap<>();
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private final PluginHealth health;

    public PluginRegistry(PluginHealth health) {
        this.health = health;
    }

    public void addListener(Consumer<String> listener) {
        listeners.add(listener);
    }

    public void add(Registration r) {
        byName.compute(r.name(), (n, list) -> {
            List<Registration> l = list == null ? new ArrayList<>() : new ArrayList<>(list);
            l.add(r);
            l.sort(PREFERRED);
            return List.copyOf(l);
        });
        String clash = clash(r.name());
        if (clash != null) {
            LOG.warn(clash);
        }
        fire(r.name());
    }

    /**
     * Why {@code name} looks wrong when bundles of different symbolic names provide it, or null.
     * Side by side versions of one plugin come from one bundle; a second bundle using the same name
     * is most likely a copy or a clash of names, and only one of them is used.
     */
    public String clash(String name) {
        List<Registration> regs = all(name);
        List<String> bundles =
                regs.stream().map(Registration::bundle).distinct().toList();
        if (bundles.size() < 2) {
            return null;
        }
        String serving = serving(name).map(r -> r.bundle() + " " + r.version()).orElse("none");
        return "Plugin " + name + " is provided by " + bundles.size() + " different bundles ("
                + String.join(
                        ", ",
                        regs.stream().map(r -> r.bundle() + " " + r.version()).toList())
                + "); only " + serving + " serves (the highest version), the others stand by. Rename the plugin"
                + " in all but one of them, or remove the copies";
    }

    public void remove(Registration r) {
        byName.computeIfPresent(r.name(), (n, list) -> {
            List<Registration> l = new ArrayList<>(list);
            l.removeIf(x -> x.serviceId() == r.serviceId());
            return l.isEmpty() ? null : List.copyOf(l);
        });
        health.forget(r);
        fire(r.name());
    }

    /** The registration that serves {@code name}: the highest version neither quarantined nor stuck. */
    public Optional<Registration> serving(String name) {
        for (Registration r : byName.getOrDefault(name, List.of())) {
            if (!health.quarantined(r) && !health.stuck(r)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /** Every registration of {@code name}, preferred first. */
    public List<Registration> all(String name) {
        return byName.getOrDefault(name, List.of());
    }

    /** Every registration, by name. */
    public Map<String, List<Registration>> all() {
        return Map.copyOf(byName);
    }

    /** Re-evaluates which registration serves {@code name} (after a quarantine or a release). */
    public void changed(String name) {
        fire(name);
    }

    private void fire(String name) {
        for (Consumer<String> l : listeners) {
            l.accept(name);
        }
    }
}
