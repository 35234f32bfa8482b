package io.hotsched.kube.delivery;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
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

    private byte[] download(String url) throws Refusal {
        HttpRequest request =
                HttpRequest.newBuilder(URI.create(url)).timeout(timeout).GET().build();
        try {
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = response.body()) {
                if (response.statusCode() != 200) {
                    throw new Refusal(
                            "GET " + url + " answered HTTP " + response.statusCode(), response.statusCode() >= 500);
                }
                return bounded(in, url);
            }
        } catch (HttpTimeoutException e) {
            throw new Refusal("GET " + url + ": no answer within " + timeout.toSeconds() + " s", true);
        } catch (IOException e) {
            throw new Refusal("GET " + url + " failed: " + e, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Refusal("GET " + url + " interrupted");
        }
    }

    private byte[] bounded(InputStream in, String url) throws IOException, Refusal {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[65536];
        for (int n; (n = in.read(buffer)) >= 0; ) {
            out.write(buffer, 0, n);
            if (out.size() > maxBytes) {
                throw new Refusal(url + " is larger than maxBundleBytes (" + maxBytes + ")");
            }
        }
        return out.toByteArray();
    }

    private byte[] fromObject(PluginSpec.Source s) throws Refusal {
        String where = s.kind() + " " + s.namespace() + "/" + s.objectName();
        Map<String, String> data;
        try {
            if (s.kind().equals("ConfigMap")) {
                ConfigMap cm = client.configMaps()
                        .inNamespace(s.namespace())
                        .withName(s.objectName())
                        .get();
                if (cm == null) {
                    throw new Refusal(where + " not found");
                }
                data = cm.getBinaryData();
            } else {
                Secret secret = client.secrets()
                        .inNamespace(s.namespace())
                        .withName(s.objectName())
                        .get();
                if (secret == null) {
                    throw new Refusal(where + " not found");
                }
                data = secret.getData();
            }
        } catch (KubernetesClientException e) {
            throw new Refusal("cannot read " + where + ": " + e.getMessage(), true);
        }
        String encoded = data == null ? null : data.get(s.key());
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
}
