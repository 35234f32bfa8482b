package io.hotsched.transformers.amplification;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import org.osgi.service.component.annotations.Component;

/**
 * Koordinator's node resource amplification, as a Filter and Score transformer: a node's
 * {@code node.koordinator.sh/resource-amplification-ratio} multiplies its raw allocatable
 * ({@code node.koordinator.sh/raw-allocatable}, else {@code status.allocatable}) in what the
 * Filter and Score plugins see. The cached node is never changed. See docs/transformers.md.
 */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + ResourceAmplification.NAME)
public final class ResourceAmplification implements PluginFactory {

    public static final String NAME = "ResourceAmplification";
    public static final String RATIO_ANNOTATION = "node.koordinator.sh/resource-amplification-ratio";
    public static final String RAW_ALLOCATABLE_ANNOTATION = "node.koordinator.sh/raw-allocatable";

    @Override
    public Plugin create(PluginArgs args, Handle handle) {
        return new AmplificationTransformer();
    }
}
