package io.hotsched.plugins.defaults.imagelocality;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.ImageStateSummary;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.ScorePlugin;
import java.util.List;
import java.util.Map;

/**
 * Score: nodes that already hold the pod's images score higher, by the images' sizes scaled by
 * how widely each image is spread over the cluster (so one node holding a common image does not
 * attract every pod).
 */
public final class ImageLocality implements ScorePlugin {

    public static final String NAME = "ImageLocality";
    private static final long MB = 1024L * 1024;
    /** Below this sum of image sizes a node scores 0: small images are cheap to pull. */
    static final long MIN_THRESHOLD = 23 * MB;
    /** Per container, the sum above which a node scores 100. */
    static final long MAX_CONTAINER_THRESHOLD = 1000 * MB;

    private final Handle handle;

    ImageLocality(Handle handle) {
        this.handle = handle;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        PodSpec spec = pod.pod().getSpec();
        if (spec == null) {
            return 0;
        }
        int totalNodes = handle.snapshot().size();
        Map<String, ImageStateSummary> images = node.imageStates();
        long sum = sum(images, spec.getInitContainers(), totalNodes) + sum(images, spec.getContainers(), totalNodes);
        int containers = size(spec.getInitContainers()) + size(spec.getContainers());
        long maxThreshold = MAX_CONTAINER_THRESHOLD * containers;
        if (sum < MIN_THRESHOLD) {
            sum = MIN_THRESHOLD;
        } else if (sum > maxThreshold) {
            sum = maxThreshold;
        }
        return maxThreshold <= MIN_THRESHOLD ? 0 : 100 * (sum - MIN_THRESHOLD) / (maxThreshold - MIN_THRESHOLD);
    }

    private static long sum(Map<String, ImageStateSummary> images, List<Container> containers, int totalNodes) {
        if (containers == null || images.isEmpty() || totalNodes == 0) {
            return 0;
        }
        long sum = 0;
        for (Container c : containers) {
            ImageStateSummary s =
                    c.getImage() == null ? null : images.get(ImageStateSummary.normalizedName(c.getImage()));
            if (s != null) {
                // spread: an image on few nodes counts little, so pods do not pile onto them
                sum += (long) ((double) s.size() * s.numNodes() / totalNodes);
            }
        }
        return sum;
    }

    private static int size(List<?> l) {
        return l == null ? 0 : l.size();
    }
}
