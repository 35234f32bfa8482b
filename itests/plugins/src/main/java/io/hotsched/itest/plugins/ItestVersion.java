package io.hotsched.itest.plugins;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.InvalidArgsException;
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
 * ({@value #ANNOTATION}), and the {@code tag} of its args ({@value #TAG_ANNOTATION}), so a test
 * can tell which version of a swapped plugin, and which configuration, decided.
 */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + ItestVersion.NAME)
public final class ItestVersion implements PluginFactory {

    public static final String NAME = "ItestVersion";
    public static final String ANNOTATION = "itest.hotsched.io/version";
    public static final String TAG_ANNOTATION = "itest.hotsched.io/tag";

    /** The args: a tag of lower-case letters, digits and dashes. */
    public static final class Args {
        public String tag = "none";
    }

    @Override
    public Plugin create(PluginArgs args, Handle handle) throws InvalidArgsException {
        String version =
                FrameworkUtil.getBundle(ItestVersion.class).getVersion().toString();
        String tag = args.as(Args.class).tag;
        if (tag == null || !tag.matches("[a-z0-9-]+")) {
            throw new InvalidArgsException("tag", tag, "lower-case letters, digits and dashes");
        }
        return new PreBindPlugin() {
            @Override
            public String name() {
                return NAME;
            }

            @Override
            public Status preBind(CycleState state, PodInfo pod, String nodeName) {
                handle.cluster().patchPod(pod, p -> {
                    Map<String, String> a = p.getMetadata().getAnnotations() == null
                            ? new LinkedHashMap<>()
                            : new LinkedHashMap<>(p.getMetadata().getAnnotations());
                    a.put(ANNOTATION, version);
                    a.put(TAG_ANNOTATION, tag);
                    p.getMetadata().setAnnotations(a);
                    return p;
                });
                return Status.SUCCESS;
            }
        };
    }
}
