package io.hotsched.core.hostile;

/** A class the plugin classes below need, hidden from them by {@link HidingLoader}: as if its bundle left out a jar. */
public final class Gone {

    private Gone() {}

    public static boolean yes() {
        return true;
    }
}
