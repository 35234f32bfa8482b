package io.hotsched.kube.delivery;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;

/**
 * Reads the bytes a {@link PluginSpec.Source} names: over https (bounded in time and size), or
 * from a ConfigMap's binaryData or a Secret's data. Every failure is a {@link Refusal} naming the
 * source.
 */
public final class BundleFetcher {

    private final KubernetesClient client;
    private final HttpClient http;
    private final Duration timeout;
    private final long maxBytes;

    /** @param tls the trust for https downloads (the JDK's default, or a test CA) */
    public BundleFetcher(KubernetesClient client, SSLContext tls, Duration timeout, long maxBytes) {
        this.client = client;
        this.timeout = timeout;
        this.maxBytes = maxBytes;
        this.http = HttpClient.newBuilder()
                .sslContext(tls)
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    public byte[] fetch(PluginSpec.Source source) throws Refusal {
        return source.url() != null ? download(source.url()) : fromObject(source);
    }

    /** The whole download, headers and body, within the time-out: a server that trickles is cut off too. */
    private byte[] download(String url) throws Refusal {
        HttpRequest request =
                HttpRequest.newBuilder(URI.create(url)).timeout(timeout).GET().build();
        CompletableFuture<HttpResponse<byte[]>> answer = http.sendAsync(
                request,
                info -> info.statusCode() == 200
                        ? new BoundedBody(maxBytes)
                        : HttpResponse.BodySubscribers.replacing(new byte[0]));
        try {
            HttpResponse<byte[]> response = answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (response.statusCode() != 200) {
                throw new Refusal(
                        "GET " + url + " answered HTTP " + response.statusCode(), response.statusCode() >= 500);
            }
            return response.body();
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new Refusal("GET " + url + ": no answer within " + timeout.toSeconds() + " s", true);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof BoundedBody.TooLarge || cause.getCause() instanceof BoundedBody.TooLarge) {
                throw new Refusal(url + " is larger than maxBundleBytes (" + maxBytes + ")");
            }
            if (cause instanceof HttpTimeoutException) {
                throw new Refusal("GET " + url + ": no answer within " + timeout.toSeconds() + " s", true);
            }
            throw new Refusal("GET " + url + " failed: " + cause, true);
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw new Refusal("GET " + url + " interrupted", true);
        }
    }

    private byte[] fromObject(PluginSpec.Source s) throws Refusal {
        String where = s.kind() + " " + s.namespace() + "/" + s.objectName();
        Optional<Map<String, String>> data;
        try {
            data = s.kind().equals("ConfigMap")
                    ? Optional.ofNullable(client.configMaps()
                                    .inNamespace(s.namespace())
                                    .withName(s.objectName())
                                    .get())
                            .map(c -> orEmpty(c.getBinaryData()))
                    : Optional.ofNullable(client.secrets()
                                    .inNamespace(s.namespace())
                                    .withName(s.objectName())
                                    .get())
                            .map(c -> orEmpty(c.getData()));
        } catch (KubernetesClientException e) {
            throw new Refusal("cannot read " + where + ": " + e.getMessage(), true);
        }
        String encoded =
                data.orElseThrow(() -> new Refusal(where + " not found")).get(s.key());
        if (encoded == null) {
            throw new Refusal(
                    where + " has no key " + s.key() + (s.kind().equals("ConfigMap") ? " in binaryData" : " in data"));
        }
        try {
            return Base64.getDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
            throw new Refusal(where + " key " + s.key() + " is not base64: " + e.getMessage());
        }
    }

    private static Map<String, String> orEmpty(Map<String, String> m) {
        return m == null ? Map.of() : m;
    }
}
