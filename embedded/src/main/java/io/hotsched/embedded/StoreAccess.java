package io.hotsched.embedded;

import java.util.Set;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;

/**
 * What the write handlers (patches, server-side apply, creates and updates) need of the store:
 * its write lock, the stored JSON at a path, and which API groups are custom resources'.
 *
 * @param customGroups API groups of custom resources
 * @param lock the store's write lock
 * @param current the stored JSON of the object at a path, or null
 */
record StoreAccess(Set<String> customGroups, Lock lock, Function<String, String> current) {

    boolean isCustom(String group) {
        return customGroups.contains(group);
    }

    /** The merge rules of objects of {@code group}. */
    Associations rules(String group) {
        return isCustom(group) ? Associations.CUSTOM : Associations.BUILT_IN;
    }
}
