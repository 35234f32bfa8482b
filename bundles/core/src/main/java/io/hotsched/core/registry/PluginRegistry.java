package io.hotsched.core.registry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.osgi.framework.Version;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugin factories present, by plugin name. Several may serve one name (two versions side by
 * side): the highest bundle version serves, the others stand by. A quarantined registration does
 * not serve. Listeners hear the name whose serving factory may have changed.
 *
 * <p>A registration in shadow never serves: the profiles using its name run it beside the serving
 * one and compare what it would decide ({@link #shadow}). Promoting it ends the shadow and makes it
 * serve even when another version is higher.
 */
public final class PluginRegistry {

    private static final Comparator<Registration> PREFERRED = Comparator.comparing(
                    Registration::version, Comparator.reverseOrder())
            .thenComparingLong(Registration::serviceId);

    private static final Logger LOG = LoggerFactory.getLogger(PluginRegistry.class);

    private final Map<String, List<Registration>> byName = new ConcurrentHashMap<>();
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private final PluginHealth health;
    /** Registrations (by service id) in shadow. */
    private final Set<Long> shadows = ConcurrentHashMap.newKeySet();
    /** By name, the registration promoted from shadow: it serves before higher versions. */
    private final Map<String, Long> promoted = new ConcurrentHashMap<>();

    public PluginRegistry(PluginHealth health) {
        this.health = health;
    }

    public void addListener(Consumer<String> listener) {
        listeners.add(listener);
    }

    public void add(Registration r) {
        add(r, false);
    }

    /** Adds {@code r}, in shadow when {@code shadow} (a bundle's {@code Hotsched-Shadow} header): it never serves at once. */
    public void add(Registration r, boolean shadow) {
        if (shadow) {
            shadows.add(r.serviceId());
        }
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
        shadows.remove(r.serviceId());
        promoted.remove(r.name(), r.serviceId());
        fire(r.name());
    }

    /**
     * The registration that serves {@code name}: the promoted one if it can, else the highest version
     * neither in shadow, quarantined nor stuck.
     */
    public Optional<Registration> serving(String name) {
        List<Registration> all = byName.getOrDefault(name, List.of());
        Long first = promoted.get(name);
        if (first != null) {
            for (Registration r : all) {
                if (r.serviceId() == first && healthy(r)) {
                    return Optional.of(r);
                }
            }
        }
        for (Registration r : all) {
            if (!shadows.contains(r.serviceId()) && healthy(r)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /** The registration of {@code name} in shadow, if one is and it is neither quarantined nor stuck. */
    public Optional<Registration> shadow(String name) {
        for (Registration r : byName.getOrDefault(name, List.of())) {
            if (shadows.contains(r.serviceId()) && healthy(r)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    public boolean inShadow(Registration r) {
        return shadows.contains(r.serviceId());
    }

    private boolean healthy(Registration r) {
        return !health.quarantined(r) && !health.stuck(r);
    }

    /**
     * Puts version {@code version} of plugin {@code name} in shadow (one shadow per name: another
     * one ends). Returns the registration.
     *
     * @throws IllegalArgumentException naming the plugin and the versions there are, when there is no such version
     * @throws IllegalStateException when that version serves and no other version could take over
     */
    public Registration startShadow(String name, String version) {
        List<Registration> all = byName.getOrDefault(name, List.of());
        if (all.isEmpty()) {
            throw new IllegalArgumentException("no plugin " + name + " is registered");
        }
        Version v;
        try {
            v = Version.parseVersion(version);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("version \"" + version + "\" of " + name + ": " + e.getMessage());
        }
        Registration target = null;
        for (Registration r : all) {
            if (r.version().equals(v)) {
                target = r;
            }
        }
        if (target == null) {
            throw new IllegalArgumentException("plugin " + name + " has no version " + version + "; registered: "
                    + all.stream().map(r -> r.version().toString()).toList());
        }
        boolean otherCanServe = false;
        for (Registration r : all) {
            otherCanServe |= r.serviceId() != target.serviceId() && healthy(r);
        }
        if (!otherCanServe) {
            throw new IllegalStateException("version " + version + " of " + name
                    + " is the only one that can serve: a shadow needs another version serving");
        }
        putInShadow(target);
        return target;
    }

    /**
     * Puts {@code target} in shadow (another shadow of its name ends) even when no other version can
     * serve, as a {@code Hotsched-Shadow} header does on arrival: the profiles using the name then
     * wait for a version that serves.
     */
    public void putInShadow(Registration target) {
        for (Registration r : all(target.name())) {
            shadows.remove(r.serviceId());
        }
        shadows.add(target.serviceId());
        promoted.remove(target.name(), target.serviceId());
        fire(target.name());
    }

    /** Ends the shadow of {@code name}; the registration that was in shadow, if any. */
    public Optional<Registration> stopShadow(String name) {
        Optional<Registration> s = inShadow(name);
        s.ifPresent(r -> {
            // it stands by from now on: it does not take over because it is the highest version
            serving(name).ifPresent(cur -> promoted.put(name, cur.serviceId()));
            shadows.remove(r.serviceId());
            fire(name);
        });
        return s;
    }

    /**
     * The shadow of {@code name} serves from now on (the version serving until now stands by), even
     * when it is not the highest version. Returns it.
     *
     * @throws IllegalArgumentException when {@code name} has no shadow
     */
    public Registration promote(String name) {
        Registration r = inShadow(name)
                .orElseThrow(() -> new IllegalArgumentException("plugin " + name + " has no version in shadow"));
        shadows.remove(r.serviceId());
        promoted.put(name, r.serviceId());
        fire(name);
        return r;
    }

    private Optional<Registration> inShadow(String name) {
        for (Registration r : byName.getOrDefault(name, List.of())) {
            if (shadows.contains(r.serviceId())) {
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
