package io.hotsched.embedded;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** A watch over plain HTTP/1.1, as kubectl opens one: its answer's headers, then one event a line. */
final class EventStream implements AutoCloseable {

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final String END = "\0end";

    final HttpResponse<Stream<String>> response;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();
    private final Thread reader;

    private EventStream(HttpResponse<Stream<String>> response) {
        this.response = response;
        this.reader = new Thread(
                () -> {
                    try (Stream<String> body = response.body()) {
                        body.forEach(lines::add);
                    } catch (RuntimeException e) {
                        // closed by the test
                    }
                    lines.add(END);
                },
                "event-stream");
        reader.setDaemon(true);
        reader.start();
    }

    /** Opens {@code path} of {@code base}; returns once the answer's headers are in. */
    static EventStream open(String base, String path, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).GET();
        if (accept != null) {
            b.header("Accept", accept);
        }
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        return new EventStream(client.send(b.build(), HttpResponse.BodyHandlers.ofLines()));
    }

    static EventStream open(String base, String path) throws Exception {
        return open(base, path, null);
    }

    /** The next event (10 s at most); fails naming the events so far when none comes. */
    JsonNode next() throws InterruptedException {
        String line = lines.poll(10, TimeUnit.SECONDS);
        if (line == null || line.equals(END)) {
            throw new AssertionError(
                    (line == null ? "no event within 10 s" : "the stream ended") + "; so far: " + seen);
        }
        seen.add(line);
        return JSON.readTree(line);
    }

    /** The next event of {@code type}, skipping others (bookmarks, events of other objects). */
    JsonNode next(String type) throws InterruptedException {
        for (; ; ) {
            JsonNode e = next();
            if (e.path("type").asText().equals(type)) {
                return e;
            }
        }
    }

    /** Whether the server ends the stream within 10 s, with no event before the end. */
    boolean endsWithoutEvents() throws InterruptedException {
        String line = lines.poll(10, TimeUnit.SECONDS);
        if (line != null && !line.equals(END)) {
            seen.add(line);
        }
        return END.equals(line);
    }

    /** The events read so far. */
    List<String> seen() {
        return seen;
    }

    @Override
    public void close() {
        // closing the body's stream closes the connection
        response.body().close();
        reader.interrupt();
    }
}
