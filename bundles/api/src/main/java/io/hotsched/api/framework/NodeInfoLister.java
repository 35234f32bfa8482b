package io.hotsched.api.framework;

import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The nodes of the snapshot a scheduling attempt works on. The snapshot does not change while an
 * attempt runs; pods assumed by other attempts show in the next snapshot.
 */
@ProviderType
public interface NodeInfoLister {

    /** Every node, in a stable order for the lifetime of the snapshot. */
    List<NodeInfo> list();

    /** The node named {@code name}, or null. */
    NodeInfo get(String name);

    /** The number of nodes. */
    default int size() {
        return list().size();
    }
}
