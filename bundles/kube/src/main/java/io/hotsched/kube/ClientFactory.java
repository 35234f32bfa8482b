package io.hotsched.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Builds the client from what the command line named: a URL, a kubeconfig, or the environment. */
final class ClientFactory {

    private ClientFactory() {}

    /**
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
        return new KubernetesClientBuilder().withConfig(config).build();
    }
}
