package io.hotsched.kube;

import io.fabric8.kubernetes.api.model.EventBuilder;

/** The core/v1 Events this bundle records, pods' and SchedulerPlugins' alike, begin the same way. */
public final class CoreEvents {

    private CoreEvents() {}

    /**
     * The first occurrence of an event {@code name} in {@code namespace}, at {@code time} (RFC
     * 3339); the caller adds what it is about and who reports it.
     */
    public static EventBuilder firstOccurrence(
            String namespace, String name, String type, String reason, String message, String time) {
        return new EventBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .endMetadata()
                .withType(type)
                .withReason(reason)
                .withMessage(message)
                .withCount(1)
                .withFirstTimestamp(time)
                .withLastTimestamp(time);
    }
}
