package io.hotsched.transformers.nodereservation;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import org.osgi.service.component.annotations.Component;

/**
 * Koordinator's node reservation, as a Filter and Score transformer: the resources a node's
 * {@code node.koordinator.sh/reservation} annotation reserves are taken off the allocatable the
 * Filter and Score plugins see. The cached node is never changed. Enable it by name at filter and
 * score, before the plugins that read allocatable. See docs/transformers.md.
 */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + NodeReservation.NAME)
public final class NodeReservation implements PluginFactory {

    public static final String NAME = "NodeReservation";
    public static final String ANNOTATION = "node.koordinator.sh/reservation";

    @Override
    public Plugin create(PluginArgs args, Handle handle) {
        return new ReservationTransformer();
    }
}
