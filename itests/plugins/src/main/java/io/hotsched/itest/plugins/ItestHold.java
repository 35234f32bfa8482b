package io.hotsched.itest.plugins;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.PermitPlugin;
import io.hotsched.api.framework.PermitResult;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.WaitingPod;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.osgi.service.component.annotations.Component;

/**
 * Holds pods labelled {@value #HOLD_MILLIS} in Permit for that many milliseconds, then allows them
 * itself: what Reserve chose stays in flight for a while and is then bound, whatever happened to
 * the plugins meanwhile (a gang, by contrast, only completes within one framework).
 */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + ItestHold.NAME)
public final class ItestHold implements PluginFactory {

    public static final String NAME = "ItestHold";
    public static final String HOLD_MILLIS = "itest.hotsched.io/hold-ms";

    @Override
    public Plugin create(PluginArgs args, Handle handle) {
        return new PermitPlugin() {
            @Override
            public String name() {
                return NAME;
            }

            @Override
            public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
                Map<String, String> labels = pod.pod().getMetadata().getLabels();
                String hold = labels == null ? null : labels.get(HOLD_MILLIS);
                if (hold == null) {
                    return PermitResult.ALLOW;
                }
                long millis = Long.parseLong(hold);
                CompletableFuture.delayedExecutor(millis, TimeUnit.MILLISECONDS).execute(() -> {
                    WaitingPod w = handle.waitingPods().get(pod.uid());
                    if (w != null) {
                        w.allow(NAME);
                    }
                });
                return PermitResult.waitFor(Duration.ofMillis(millis * 10 + 10_000));
            }
        };
    }
}
