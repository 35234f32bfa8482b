package io.hotsched.core.runtime;

import io.hotsched.api.framework.BindPlugin;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostBindPlugin;
import io.hotsched.api.framework.PreBindPlugin;
import io.hotsched.api.framework.Status;
import io.hotsched.core.runtime.FrameworkImpl.PreBindOutcome;
import io.hotsched.core.runtime.GuardedCall.Outcome;

/**
 * The binding cycle's points after Permit: PreBind (a plugin may ask to be asked again later),
 * Bind (the first plugin that does not skip binds) and PostBind (informational, never fails).
 */
final class BindingRunner {

    private final PluginSlots slots;
    private final PluginCalls calls;

    BindingRunner(PluginSlots slots, PluginCalls calls) {
        this.slots = slots;
        this.calls = calls;
    }

    /** The PreBind plugins from the one at {@code from} on (the earlier ones are done). */
    PreBindOutcome preBind(CycleState state, PodInfo pod, String node, int from) {
        for (int i = from; i < slots.preBind.size(); i++) {
            Slot<PreBindPlugin> s = slots.preBind.get(i);
            Outcome<Status> o = calls.preBind(state, s, pod, node);
            if (!o.failed() && o.value() != null && o.value().code() == Code.WAIT) {
                return new PreBindOutcome(o.value(), i);
            }
            Status st = o.failed() ? o.failure() : GuardedCall.interpret(PluginCall.PRE_BIND, s.name(), o.value());
            if (!st.isSuccess()) {
                return new PreBindOutcome(st, -1);
            }
        }
        return new PreBindOutcome(Status.SUCCESS, -1);
    }

    /** The Bind plugins until one does not skip; {@link Status#SKIP} when all skip. */
    Status bind(CycleState state, PodInfo pod, String node) {
        for (Slot<BindPlugin> s : slots.bind) {
            Outcome<Status> o = calls.bind(state, s, pod, node);
            if (o.failed()) {
                return o.failure();
            }
            if (o.value() == null) {
                // taken as success, the pod would count as bound while no binding reached the API
                return calls.guard()
                        .invalid(
                                state,
                                s.instance(),
                                PluginCall.BIND,
                                PluginCall.BIND.describe(s.name())
                                        + ": returned no status (null); a binder returns Success once it bound"
                                        + " the pod, Skip to leave it to the next binder");
            }
            if (!o.value().isSkip()) {
                return GuardedCall.interpretAsError(PluginCall.BIND, s.name(), o.value());
            }
        }
        return Status.SKIP;
    }

    /** PostBind on every plugin; failures are recorded, never thrown. */
    Status postBind(CycleState state, PodInfo pod, String node) {
        for (Slot<PostBindPlugin> s : slots.postBind) {
            calls.postBind(state, s, pod, node);
        }
        return Status.SUCCESS;
    }
}
