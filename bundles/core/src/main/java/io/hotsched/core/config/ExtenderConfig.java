package io.hotsched.core.config;

import java.time.Duration;
import java.util.List;

/**
 * One entry of the configuration's {@code extenders} list, as kube-scheduler's v1 {@code Extender}:
 * empty verbs are absent; {@code httpTimeout} is defaulted (5 s).
 *
 * @param weight multiplies the prioritize scores; positive when {@code prioritizeVerb} is set
 * @param tls null when no {@code tlsConfig} is given
 */
public record ExtenderConfig(
        String urlPrefix,
        String filterVerb,
        String preemptVerb,
        String prioritizeVerb,
        long weight,
        String bindVerb,
        boolean enableHTTPS,
        Tls tls,
        Duration httpTimeout,
        boolean nodeCacheCapable,
        List<ManagedResource> managedResources,
        boolean ignorable) {

    /** upstream's DefaultExtenderTimeout. */
    public static final Duration DEFAULT_HTTP_TIMEOUT = Duration.ofSeconds(5);

    public ExtenderConfig {
        managedResources = List.copyOf(managedResources);
    }

    /** A resource the extender manages; {@code ignoredByScheduler}: NodeResourcesFit leaves it to the extender. */
    public record ManagedResource(String name, boolean ignoredByScheduler) {}

    /** {@code tlsConfig}: the {@code *Data} fields (PEM, base64 in the config) take precedence over the files. */
    public record Tls(
            boolean insecure,
            String serverName,
            String certFile,
            String keyFile,
            String caFile,
            byte[] certData,
            byte[] keyData,
            byte[] caData) {}
}
