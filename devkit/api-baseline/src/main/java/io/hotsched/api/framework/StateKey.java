package io.hotsched.api.framework;

import java.util.Objects;

/**
 * A typed key into {@link CycleState}. Keys are compared by name; by convention a name starts with
 * the extension point and the plugin name ({@code "PreFilterNodePorts"}), as upstream does.
 *
 * @param <T> the type of data stored under this key
 */
public final class StateKey<T extends StateData> {

    private final String name;
    private final Class<T> type;
    private final int hash;

    private StateKey(String name, Class<T> type) {
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
        this.hash = name.hashCode();
    }

    public static <T extends StateData> StateKey<T> of(String name, Class<T> type) {
        return new StateKey<>(name, type);
    }

    public String name() {
        return name;
    }

    T cast(StateData data) {
        return type.cast(data);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StateKey<?> k && k.name.equals(name);
    }

    @Override
    public int hashCode() {
        // read per plugin call and node: kept in a field rather than asked of the name
        return hash;
    }

    @Override
    public String toString() {
        return name;
    }
}
