package io.hotsched.core.osgi;

import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.scheduler.ShadowControl;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.framework.Bundle;
import org.osgi.framework.Version;

/**
 * The bundle versions that plugin delivery puts in shadow for the whole fleet (a SchedulerPlugin's
 * {@code spec.shadow}). Their plugins arrive in shadow, as with the {@code Hotsched-Shadow} header,
 * so a replica that starts later shadows them too. When the object changes, the plugins already
 * here are put in shadow or promoted. Thread-safe.
 */
final class ShadowedBundles {

    private final Set<String> keys = ConcurrentHashMap.newKeySet();

    boolean contains(Bundle bundle) {
        return containsKey(bundle.getSymbolicName(), bundle.getVersion());
    }

    boolean containsKey(String symbolicName, Version version) {
        return keys.contains(key(symbolicName, version));
    }

    /**
     * Records whether {@code symbolicName} {@code version} is in shadow, and applies it to the
     * plugins of that bundle among {@code present}.
     *
     * @param control the running scheduler's shadows (their figures start anew), or null before it runs
     * @return what changed, one line each; empty when nothing did
     */
    List<String> set(
            String symbolicName,
            Version version,
            boolean shadow,
            Collection<Registration> present,
            PluginRegistry registry,
            ShadowControl control) {
        String key = key(symbolicName, version);
        if (shadow) {
            keys.add(key);
        } else {
            keys.remove(key);
        }
        List<String> changed = new ArrayList<>();
        for (Registration r : present) {
            if (!r.bundle().equals(symbolicName) || !r.version().equals(version) || registry.inShadow(r) == shadow) {
                continue;
            }
            if (shadow) {
                if (control != null) {
                    control.putInShadow(r);
                } else {
                    registry.putInShadow(r);
                }
                changed.add("put " + r.describe() + " in shadow"
                        + (registry.serving(r.name()).isPresent()
                                ? ""
                                : " (no other version serves: the profiles using " + r.name() + " wait for one)"));
            } else {
                registry.promote(r.name());
                changed.add("promoted " + r.describe());
            }
        }
        return changed;
    }

    private static String key(String symbolicName, Version version) {
        return symbolicName + "@" + version;
    }
}
