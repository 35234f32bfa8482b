package io.hotsched.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An informer's handler that passes each add, update and delete of one kind on to the scheduler.
 * An event the scheduler cannot take (an object it cannot read) is logged naming the object, and
 * the informer goes on with the next one, instead of fabric8 logging an exception without the
 * object's name.
 */
record InformerHandler<T extends HasMetadata>(
        String kind, Consumer<T> added, BiConsumer<T, T> updated, Consumer<T> deleted)
        implements ResourceEventHandler<T> {

    private static final Logger LOG = LoggerFactory.getLogger(InformerHandler.class);

    @Override
    public void onAdd(T o) {
        pass("add", o, () -> added.accept(o));
    }

    @Override
    public void onUpdate(T o, T n) {
        pass("update", n, () -> updated.accept(o, n));
    }

    @Override
    public void onDelete(T o, boolean unknownFinalState) {
        pass("delete", o, () -> deleted.accept(o));
    }

    private void pass(String what, T object, Runnable event) {
        try {
            event.run();
        } catch (RuntimeException e) {
            LOG.warn("Could not take the {} of {} {}: {}", what, kind, key(object), e.toString());
        }
    }

    private static String key(HasMetadata o) {
        if (o == null || o.getMetadata() == null) {
            return "(without metadata)";
        }
        String ns = o.getMetadata().getNamespace();
        return ns == null || ns.isEmpty()
                ? o.getMetadata().getName()
                : ns + "/" + o.getMetadata().getName();
    }
}
