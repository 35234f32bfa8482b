package io.hotsched.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.hotsched.core.settings.SettingsCheck;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.osgi.framework.BundleContext;
import org.slf4j.Logger;

/** Builds the client from what the command line named: a URL, a kubeconfig, or the environment. */
final class ClientFactory {

    private ClientFactory() {}

    /** What runs with the client's context class loader. */
    interface Connect {
        void run() throws Exception;
    }

    /** What a component starts once its settings are read. */
    interface Start<S> {
        void run(S settings) throws Exception;
    }

    /**
     * A component's activation: its settings of {@code type} read through {@link SettingsCheck}
     * (not SCR's conversion: a value of the wrong type would throw there), each problem logged as
     * an error, then {@code start} with them under {@link #withJdkContextLoader}.
     */
    static <S extends Annotation> void activate(
            Class<S> type, Map<String, Object> properties, Logger log, Start<S> start) throws Exception {
        S settings = SettingsCheck.read(type, properties, null, log::error);
        withJdkContextLoader(() -> start.run(settings));
    }

    /**
     * Runs {@code connect} with a context class loader that sees only the JDK. fabric8 looks up
     * providers (HTTP client, model types) through the context class loader first; whatever the
     * host put there (an application class path holding its own fabric8, as in a test JVM or
     * another OSGi container) would win over this bundle's wiring. The client, its informers and
     * their threads are made with this loader.
     */
    static void withJdkContextLoader(Connect connect) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(new ClassLoader("hotsched-kube-context", ClassLoader.getPlatformClassLoader()) {});
        try {
            connect.run();
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    /** A client from what the framework properties name ({@code hotsched.master}, {@code hotsched.kubeconfig}). */
    static KubernetesClient create(BundleContext context, int maxConcurrentRequests) throws IOException {
        return create(
                context.getProperty("hotsched.master"),
                context.getProperty("hotsched.kubeconfig"),
                maxConcurrentRequests);
    }

    /**
     * A client whose requests answered 429 or 5xx wait out the server's {@code Retry-After} before
     * any retry ({@link RetryAfter}).
     *
     * @param master the API server URL ({@code --master}, or the embedded server), or null
     * @param kubeconfig a kubeconfig file ({@code --kubeconfig}), or null
     */
    static KubernetesClient create(String master, String kubeconfig, int maxConcurrentRequests) throws IOException {
        Config config;
        if (master != null && !master.isBlank()) {
            config = new ConfigBuilder(Config.empty())
                    .withMasterUrl(master)
                    .withHttp2Disable(true)
                    .withNamespace("default")
                    .build();
        } else if (kubeconfig != null && !kubeconfig.isBlank()) {
            config = Config.fromKubeconfig(Files.readString(Path.of(kubeconfig)));
        } else {
            // in-cluster service account, or ~/.kube/config, as kubectl would
            config = Config.autoConfigure(null);
        }
        config.setMaxConcurrentRequests(maxConcurrentRequests);
        config.setMaxConcurrentRequestsPerHost(maxConcurrentRequests);
        return new KubernetesClientBuilder()
                .withConfig(config)
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor(RetryAfter.NAME, new RetryAfter()))
                .build();
    }
}
