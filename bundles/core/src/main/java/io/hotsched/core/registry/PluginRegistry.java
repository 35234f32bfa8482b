package io.hotsched.core.registry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The plugin factories present, by plugin name. Several may serve one name (two versions side by
 * side): the highest bundle version serves, the others stand by. A quarantined registration does
 * not serve. Listeners hear the name whose serving factory may have changed.
 */
public final class PluginRegistry {

    private static final Comparator<Registration> PREFERRED = Comparator.comparing(
                    Registration::version, Comparator.reverseOrder())
            .thenComparingLong(Registration::serviceId);

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
        fire(r.name());
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
