package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;

/** Controller owner references, as upstream's controllers set and read them. */
final class Ownership {

    private Ownership() {}

    /** The owner reference with {@code controller: true}, or null. */
    static OwnerReference controllerOf(HasMetadata o) {
        if (o.getMetadata() == null || o.getMetadata().getOwnerReferences() == null) {
            return null;
        }
        for (OwnerReference r : o.getMetadata().getOwnerReferences()) {
            if (Boolean.TRUE.equals(r.getController())) {
                return r;
            }
        }
        return null;
    }

    /** True when {@code o}'s controller is an object of {@code kind}. */
    static boolean controlledByKind(HasMetadata o, String kind) {
        OwnerReference r = controllerOf(o);
        return r != null && kind.equals(r.getKind());
    }

    /** The reference a controller puts on what it creates: controller, and blocking its owner's foreground deletion. */
    static OwnerReference controllerRef(HasMetadata owner) {
        return new OwnerReferenceBuilder()
                .withApiVersion(owner.getApiVersion())
                .withKind(owner.getKind())
                .withName(owner.getMetadata().getName())
                .withUid(owner.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }

    static String key(HasMetadata o) {
        return o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
    }
}
