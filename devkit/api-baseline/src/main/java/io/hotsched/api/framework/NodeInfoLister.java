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

    /**
     * The nodes with at least one pod that has affinity or anti-affinity terms (upstream's
     * HavePodsWithAffinityList), in {@link #list()} order. A lister may keep it up to date as it
     * changes, so that plugins need not walk every node to find them.
     *
     * @since 1.4
     */
    default List<NodeInfo> havePodsWithAffinityList() {
        return list().stream().filter(n -> !n.podsWithAffinity().isEmpty()).toList();
    }

    /**
     * The nodes with at least one pod that has required anti-affinity terms (upstream's
     * HavePodsWithRequiredAntiAffinityList), in {@link #list()} order.
     *
     * @since 1.4
     */
    default List<NodeInfo> havePodsWithRequiredAntiAffinityList() {
        return list().stream()
                .filter(n -> !n.podsWithRequiredAntiAffinity().isEmpty())
                .toList();
    }

    /**
     * Whether a pod on any node of the snapshot uses the PersistentVolumeClaim {@code key}
     * ({@code namespace/name}; upstream's StorageInfos().IsPVCUsedByPods). A lister may keep the
     * set of used claims up to date instead of walking every node.
     *
     * @since 1.7
     */
    default boolean isPVCUsedByPods(String key) {
        for (NodeInfo n : list()) {
            if (n.pvcRefCounts().containsKey(key)) {
                return true;
            }
        }
        return false;
    }
}
