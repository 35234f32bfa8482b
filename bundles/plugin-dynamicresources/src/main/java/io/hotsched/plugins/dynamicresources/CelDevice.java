package io.hotsched.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import java.util.AbstractMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A device as its selectors see it: {@code driver}, and {@code attributes} and {@code capacity} by
 * domain and then by name. A name without a domain belongs to the driver's domain, as Kubernetes
 * qualifies it. An unknown domain is an empty map, so {@code "x" in device.attributes["other"]}
 * is false rather than an error. Built once per device and cycle.
 */
final class CelDevice {

    private CelDevice() {}

    static Map<String, Object> of(String driver, Device d) {
        Map<String, Map<String, Object>> attributes = new HashMap<>();
        if (d.getAttributes() != null) {
            d.getAttributes().forEach((name, a) -> {
                Object v = value(a);
                if (v != null) {
                    put(attributes, driver, name, v);
                }
            });
        }
        Map<String, Map<String, Object>> capacity = new HashMap<>();
        if (d.getCapacity() != null) {
            for (Map.Entry<String, DeviceCapacity> e : d.getCapacity().entrySet()) {
                if (e.getValue() != null && e.getValue().getValue() != null) {
                    put(
                            capacity,
                            driver,
                            e.getKey(),
                            CelQuantity.of(e.getValue().getValue()));
                }
            }
        }
        Map<String, Object> device = new HashMap<>();
        device.put("driver", driver);
        device.put("attributes", new Domains(attributes));
        device.put("capacity", new Domains(capacity));
        device.put("allowMultipleAllocations", Boolean.TRUE.equals(d.getAllowMultipleAllocations()));
        return device;
    }

    /** The attribute's value as CEL and the constraints compare it; null when it has none. */
    static Object value(DeviceAttribute a) {
        if (a == null) {
            return null;
        }
        if (a.getBool() != null) {
            return a.getBool();
        }
        if (a.getInt() != null) {
            return a.getInt();
        }
        if (a.getString() != null) {
            return a.getString();
        }
        if (a.getVersion() != null) {
            return CelSemver.isSemver(a.getVersion()) ? CelSemver.parse(a.getVersion()) : a.getVersion();
        }
        return null;
    }

    /** The attribute {@code qualified} ("domain/name", or a name of the driver's domain) of the device, or null. */
    static DeviceAttribute attribute(String driver, Device d, String qualified) {
        if (d.getAttributes() == null) {
            return null;
        }
        DeviceAttribute a = d.getAttributes().get(qualified);
        int slash = qualified.indexOf('/');
        if (a == null && slash > 0 && qualified.substring(0, slash).equals(driver)) {
            a = d.getAttributes().get(qualified.substring(slash + 1));
        }
        return a;
    }

    private static void put(Map<String, Map<String, Object>> byDomain, String driver, String name, Object v) {
        int slash = name.indexOf('/');
        String domain = slash < 0 ? driver : name.substring(0, slash);
        String id = slash < 0 ? name : name.substring(slash + 1);
        byDomain.computeIfAbsent(domain, k -> new HashMap<>()).put(id, v);
    }

    /** Maps by domain where every domain is present, the unknown ones empty. */
    private static final class Domains extends AbstractMap<String, Map<String, Object>> {
        private final Map<String, Map<String, Object>> known;

        Domains(Map<String, Map<String, Object>> known) {
            this.known = known;
        }

        @Override
        public Map<String, Object> get(Object key) {
            return known.getOrDefault(key, Map.of());
        }

        @Override
        public boolean containsKey(Object key) {
            return key instanceof String;
        }

        @Override
        public Set<Entry<String, Map<String, Object>>> entrySet() {
            return known.entrySet();
        }
    }
}
