package io.hotsched.api.framework;

import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/** The pods of a profile currently held in Permit. */
@ProviderType
public interface WaitingPods {

    /** The waiting pod with {@code uid}, or null. */
    WaitingPod get(String uid);

    /** A snapshot of all waiting pods. */
    List<WaitingPod> list();
}
