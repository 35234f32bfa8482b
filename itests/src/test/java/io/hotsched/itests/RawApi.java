package io.hotsched.itests;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON over HTTP to an API server, without a Kubernetes client: this test class path has no fabric8
 * HTTP client on purpose (the container's bundles would find it).
 */
final class RawApi {

    static final ObjectMapper JSON = JsonMapper.builder().build();

    private final String base;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    RawApi(String base) {
        this.base = base;
    }

    /** The server's URL. */
    String base() {
        return base;
    }

    /** The object at {@code path}, or null for a 404. */
    JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 404) {
            return null;
        }
        if (r.statusCode() != 200) {
            throw new IOException("GET " + path + ": " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }

    /** POSTs {@code json} and returns the created object; anything but 200/201 throws. */
    JsonNode post(String path, String json) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200 && r.statusCode() != 201) {
            throw new IOException("POST " + path + ": " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }
}
