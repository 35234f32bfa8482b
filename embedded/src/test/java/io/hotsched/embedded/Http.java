package io.hotsched.embedded;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Plain HTTP requests to a server, with the headers a test chooses. */
final class Http {

    /**
     * HTTP/1.1 as kubectl and client-go speak over plain http (they do not try the h2c upgrade
     * that the JDK's client tries by default, which is not what these tests are about).
     */
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(java.time.Duration.ofSeconds(10))
            .build();

    private Http() {}

    static HttpResponse<String> send(
            String base, String method, String path, String contentType, byte[] body, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                // a server that never answers fails the test that asked, not the build's time limit
                .timeout(java.time.Duration.ofSeconds(30))
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        if (accept != null) {
            b.header("Accept", accept);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
