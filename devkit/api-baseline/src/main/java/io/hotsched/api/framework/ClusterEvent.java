package io.hotsched.api.framework;

import java.util.Set;

/**
 * A kind of change in the cluster that may make a pod schedulable again.
 *
 * @param resource the kind of object: {@code Pod}, {@code Node}, {@code PersistentVolumeClaim},
 *     or a custom resource's kind such as {@code NodeMetric} or {@code Device};
 *     {@link #WILDCARD} for any
 * @param actions which changes count; {@link ActionType#UPDATE} covers every kind of update
 */
public record ClusterEvent(String resource, Set<ActionType> actions) {

    public static final String WILDCARD = "*";
    public static final String POD = "Pod";
    public static final String NODE = "Node";
    /** @since 1.7 */
    public static final String PERSISTENT_VOLUME = ObjectKind.PERSISTENT_VOLUME.name();
    /** @since 1.7 */
    public static final String PERSISTENT_VOLUME_CLAIM = ObjectKind.PERSISTENT_VOLUME_CLAIM.name();
    /** @since 1.7 */
    public static final String STORAGE_CLASS = ObjectKind.STORAGE_CLASS.name();
    /** @since 1.7 */
    public static final String CSI_NODE = ObjectKind.CSI_NODE.name();
    /** @since 1.7 */
    public static final String CSI_DRIVER = ObjectKind.CSI_DRIVER.name();
    /** @since 1.7 */
    public static final String CSI_STORAGE_CAPACITY = ObjectKind.CSI_STORAGE_CAPACITY.name();
    /** @since 1.7 */
    public static final String VOLUME_ATTACHMENT = ObjectKind.VOLUME_ATTACHMENT.name();
    /** @since 1.8 */
    public static final String RESOURCE_CLAIM = ObjectKind.RESOURCE_CLAIM.name();
    /** @since 1.8 */
    public static final String RESOURCE_SLICE = ObjectKind.RESOURCE_SLICE.name();
    /** @since 1.8 */
    public static final String DEVICE_CLASS = ObjectKind.DEVICE_CLASS.name();

    public ClusterEvent {
        actions = Set.copyOf(actions);
    }

    public static ClusterEvent of(String resource, ActionType... actions) {
        return new ClusterEvent(resource, Set.of(actions));
    }

    /** Whether an event of {@code kind} with {@code action} is one this event names. */
    public boolean matches(String kind, ActionType action) {
        if (!WILDCARD.equals(resource) && !resource.equals(kind)) {
            return false;
        }
        if (actions.contains(action)) {
            return true;
        }
        return actions.contains(ActionType.UPDATE) && action != ActionType.ADD && action != ActionType.DELETE;
    }
}
