package io.hotsched.api.framework;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Data shared by the plugins during one scheduling attempt of one pod: created empty when the
 * attempt starts and dropped when its binding cycle ends.
 *
 * <p>Reads and writes are thread-safe (Filter and Score run in parallel over nodes), but the data
 * stored is not protected: a plugin writes its data before the parallel phase (PreFilter,
 * PreScore) and only reads it during that phase. All plugins of a profile are trusted to use
 * their own keys.
 */
public final class CycleState {

    private final ConcurrentHashMap<StateKey<?>, StateData> data;

    public CycleState() {
        this.data = new ConcurrentHashMap<>();
    }

    private CycleState(ConcurrentHashMap<StateKey<?>, StateData> data) {
        this.data = data;
    }

    /** Stores {@code value} under {@code key}, replacing what was there. */
    public <T extends StateData> void write(StateKey<T> key, T value) {
        data.put(key, value);
    }

    /** The data under {@code key}, or empty. */
    public <T extends StateData> Optional<T> read(StateKey<T> key) {
        StateData value = data.get(key);
        return value == null ? Optional.empty() : Optional.of(key.cast(value));
    }

    /**
     * The data under {@code key}, or null: {@code read(key).orElse(null)} without the
     * {@code Optional}, for Filter and Score, which run per node.
     *
     * @since 1.4
     */
    public <T extends StateData> T readOrNull(StateKey<T> key) {
        StateData value = data.get(key);
        return value == null ? null : key.cast(value);
    }

    /**
     * The data under {@code key}; a missing entry is an error of the plugin that expected it (its
     * PreFilter or PreScore did not run), reported with the key's name.
     */
    public <T extends StateData> T require(StateKey<T> key) {
        StateData value = data.get(key);
        if (value == null) {
            throw new IllegalStateException("reading \"" + key.name() + "\" from cycleState: not found");
        }
        return key.cast(value);
    }

    public void delete(StateKey<?> key) {
        data.remove(key);
    }

    /** A deep copy: every entry's {@link StateData#copy()}. Used for preemption dry runs. */
    public CycleState copy() {
        ConcurrentHashMap<StateKey<?>, StateData> copied = new ConcurrentHashMap<>(data.size() * 2);
        data.forEach((k, v) -> copied.put(k, v.copy()));
        CycleState c = new CycleState(copied);
        return c;
    }
}
