package io.hotsched.itest.plugins;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreBindPlugin;
import io.hotsched.api.framework.Status;
import java.util.LinkedHashMap;
import java.util.Map;
import org.osgi.framework.FrameworkUtil;
import org.osgi.service.component.annotations.Component;

/**
 * Writes the version of the bundle it came from onto each pod it binds
 * ({@value #ANNOTATION}), so a test can tell which version of a swapped plugin decided.
 */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + ItestVersion.NAME)
public final class ItestVersion implements PluginFactory {

    public static final String NAME = "ItestVersion";
    public static final String ANNOTATION = "itest.hotsched.io/version";

    @Override
    public Plugin create(PluginArgs args, Handle handle) {
        String version = FrameworkUtil.getBundle(ItestVersion.class).getVersion().toString();
        return new PreBindPlugin() {
            @Override
            public String name() {
                return NAME;
            }

            @Override
            public Status preBind(CycleState state, PodInfo pod, String nodeName) {
                handle.cluster().patchPod(pod, p -> {
                    Map<String, String> a = p.getMetadata().getAnnotations() == null ? new LinkedHashMap<>()
                            : new LinkedHashMap<>(p.getMetadata().getAnnotations());
                    a.put(ANNOTATION, version);
                    p.getMetadata().setAnnotations(a);
                    return p;
                });
                return Status.SUCCESS;
            }
        };
    }
}
