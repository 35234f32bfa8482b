package io.hotsched.core.cache;

import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.Node;
import io.hotsched.api.framework.ImageStateSummary;
import java.util.HashMap;
import java.util.Map;

/** The images a node reports, by {@link ImageStateSummary#normalizedName normalised name}, with their sizes. */
public final class ImageNames {

    private ImageNames() {}

    static Map<String, Long> of(Node node) {
        if (node.getStatus() == null || node.getStatus().getImages() == null) {
            return Map.of();
        }
        Map<String, Long> out = new HashMap<>();
        for (ContainerImage image : node.getStatus().getImages()) {
            long size = image.getSizeBytes() == null ? 0 : image.getSizeBytes();
            if (image.getNames() != null) {
                for (String n : image.getNames()) {
                    out.put(ImageStateSummary.normalizedName(n), size);
                }
            }
        }
        return out;
    }
}
