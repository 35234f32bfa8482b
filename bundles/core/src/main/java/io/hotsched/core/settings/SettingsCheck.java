package io.hotsched.core.settings;

import io.hotsched.core.config.EditDistance;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads a configuration through its settings annotation type, as SCR does, but checks each value
 * first. SCR converts a value only when the component calls the attribute, and a value of the wrong
 * type then throws an exception that names neither file nor field ({@code NumberFormatException: For
 * input string: "many"}) and the component never starts; {@code yes} for a boolean silently reads as
 * false. Here every value that is not of its attribute's type, or below its {@link Min}, is named
 * (file, field, value, what is valid) and replaced by the fallback's value (the settings in force,
 * or the attribute's default); a key no attribute has is named with the nearest known ones.
 */
public final class SettingsCheck {

    private SettingsCheck() {}

    /**
     * The settings of {@code type} from {@code properties}; each problem goes to {@code problems}
     * as one line. {@code fallback}: what a refused value is replaced by, null for the defaults.
     */
    public static <T extends Annotation> T read(
            Class<T> type, Map<String, ?> properties, T fallback, Consumer<String> problems) {
        String file = file(properties);
        Map<String, Object> values = new LinkedHashMap<>();
        List<String> known = new ArrayList<>();
        for (Method m : type.getDeclaredMethods()) {
            known.add(m.getName());
            Object raw = properties.get(m.getName());
            Object kept = fallback == null ? m.getDefaultValue() : invoke(m, fallback);
            if (raw == null) {
                values.put(m.getName(), kept);
                continue;
            }
            try {
                values.put(m.getName(), convert(m, raw));
            } catch (IllegalArgumentException e) {
                problems.accept(file + ": " + m.getName() + ": Invalid value: " + quoted(raw) + ": " + e.getMessage()
                        + "; " + (fallback == null ? "using the default " : "keeping ") + quoted(kept));
                values.put(m.getName(), kept);
            }
        }
        for (String key : properties.keySet()) {
            // Config Admin's and FileInstall's own keys all have a dot (service.pid, felix.fileinstall.filename)
            if (!key.contains(".") && !known.contains(key)) {
                problems.accept(file + ": " + key + ": unknown setting, ignored; " + nearest(key, known));
            }
        }
        return type.cast(Proxy.newProxyInstance(
                type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> switch (method.getName()) {
                    case "annotationType" -> type;
                    case "toString" -> type.getSimpleName() + values;
                    case "hashCode" -> values.hashCode();
                    case "equals" -> proxy == args[0];
                    default -> values.get(method.getName());
                }));
    }

    /** The file the configuration came from (FileInstall names it), else its PID. */
    static String file(Map<String, ?> properties) {
        Object f = properties.get("felix.fileinstall.filename");
        if (f != null) {
            try {
                return Path.of(URI.create(f.toString())).toString();
            } catch (IllegalArgumentException e) {
                return f.toString();
            }
        }
        Object pid = properties.get("service.pid");
        return pid == null ? "the configuration" : "the configuration " + pid;
    }

    private static Object convert(Method m, Object raw) {
        Class<?> t = m.getReturnType();
        if (t == String.class) {
            return raw.toString();
        }
        if (t == boolean.class) {
            if (raw instanceof Boolean b) {
                return b;
            }
            String s = raw.toString().trim();
            if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
                return Boolean.parseBoolean(s);
            }
            throw new IllegalArgumentException("must be true or false");
        }
        double d = number(raw, t);
        Min min = m.getAnnotation(Min.class);
        if (min != null && d < min.value()) {
            throw new IllegalArgumentException("must be at least " + min.value());
        }
        if (t == int.class) {
            return (int) d;
        }
        if (t == long.class) {
            return (long) d;
        }
        return d;
    }

    private static double number(Object raw, Class<?> t) {
        String s = raw.toString().trim();
        try {
            if (t == double.class) {
                double d = Double.parseDouble(s);
                if (!Double.isFinite(d)) {
                    throw new IllegalArgumentException("must be a finite number");
                }
                return d;
            }
            long l = Long.parseLong(s);
            if (t == int.class && (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE)) {
                throw new IllegalArgumentException(
                        "must be a 32-bit integer (" + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE + ")");
            }
            return l;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(t == double.class ? "must be a number" : "must be an integer");
        }
    }

    private static Object invoke(Method m, Object settings) {
        try {
            return m.invoke(settings);
        } catch (ReflectiveOperationException e) {
            return m.getDefaultValue();
        }
    }

    private static String quoted(Object v) {
        return v instanceof String s ? "\"" + s + "\"" : String.valueOf(v);
    }

    /** "did you mean" the known names within two edits of {@code key}, else all known names. */
    private static String nearest(String key, List<String> known) {
        List<String> near = known.stream()
                .filter(k -> EditDistance.of(key.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT), 2) <= 2)
                .sorted()
                .toList();
        return near.isEmpty()
                ? "known settings: " + String.join(", ", known.stream().sorted().toList())
                : "did you mean " + String.join(" or ", near) + "?";
    }
}
