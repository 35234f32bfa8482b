package io.hotsched.api.framework;

import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The pods of a profile currently held in Permit, whichever version of its plugins they wait on:
 * after a plugin swap, the new instances see (and may allow or reject) the pods still waiting on
 * the old ones, as a gang plugin needs. A pod leaves the list once its wait ends.
 */
@ProviderType
public interface WaitingPods {

    /** The waiting pod with {@code uid}, or null. */
    WaitingPod get(String uid);

    /** A snapshot of all waiting pods. */
    List<WaitingPod> list();
}
