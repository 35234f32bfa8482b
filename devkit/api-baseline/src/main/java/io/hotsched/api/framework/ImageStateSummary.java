package io.hotsched.api.framework;

/**
 * An image present on a node: its size in bytes, and on how many nodes of the cluster it is.
 * {@link NodeInfo#imageStates()} keys these by {@link #normalizedName(String) normalized name}.
 */
public record ImageStateSummary(long size, int numNodes) {

    /**
     * The name images are keyed by, as upstream normalizes it: a name with neither a tag after
     * its last {@code /} nor a digest gets {@code :latest}.
     */
    public static String normalizedName(String image) {
        int slash = image.lastIndexOf('/');
        if (image.indexOf(':', slash + 1) >= 0 || image.contains("@")) {
            return image;
        }
        return image + ":latest";
    }
}
