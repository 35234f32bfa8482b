package io.hotsched.plugins.defaults.defaultbinder;

import io.hotsched.api.framework.BindPlugin;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;

/** Binds the pod through the {@code pods/binding} subresource; an API error is an error status. */
public final class DefaultBinder implements BindPlugin {

    public static final String NAME = "DefaultBinder";

    private final Handle handle;

    DefaultBinder(Handle handle) {
        this.handle = handle;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status bind(CycleState state, PodInfo pod, String nodeName) {
        try {
            handle.cluster().bind(pod, nodeName);
            return Status.SUCCESS;
        } catch (RuntimeException e) {
            return Status.error(e);
        }
    }
}
