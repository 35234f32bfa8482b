package io.hotsched.plugins.defaults.helper;

import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;

/** Small things every plugin needs: the status for missing cycle state. */
public final class States {

    private States() {}

    /** Filter or Score ran without the state their PreFilter or PreScore writes: an error, as upstream. */
    public static Status notFound(StateKey<?> key) {
        return Status.error("error reading \"" + key.name() + "\" from cycleState: not found");
    }
}
