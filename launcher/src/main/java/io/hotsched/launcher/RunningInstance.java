package io.hotsched.launcher;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the instance (scheduler with its embedded API server, or {@code hotsched apiserver}) that
 * runs from a home: it wrote {@code data/kubeconfig} when it started, and the server that file names
 * answers {@code /version} as a Kubernetes API server. The file is left behind when an instance
 * stops, so the liveness check is what tells a running instance from a stopped one.
 */
final class RunningInstance {

    private static final Pattern SERVER = Pattern.compile("(?m)^\\s*server:\\s*(\\S+)\\s*$");
    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    /** What was found: the kubeconfig of a live instance, or why there is none. */
    record Found(Optional<String> kubeconfig, String why) {}

    private RunningInstance() {}

    static Found in(Path home) {
        Path file = EmbeddedCluster.kubeconfigOf(home);
        String kubeconfig;
        try {
            kubeconfig = Files.readString(file);
        } catch (NoSuchFileException e) {
            return none("no instance runs from " + home + " (" + file + " does not exist); start one with"
                    + " bin/hotsched or bin/hotsched apiserver");
        } catch (IOException e) {
            return none("cannot read " + file + ": " + e.getMessage());
        }
        Matcher m = SERVER.matcher(kubeconfig);
        if (!m.find()) {
            return none(file + " names no server");
        }
        String url = m.group(1);
        String problem = answersVersion(url);
        if (problem != null) {
            return none("no instance runs from " + home + ": " + file + " names " + url + ", which " + problem
                    + " (left by an instance that stopped)");
        }
        return new Found(Optional.of(kubeconfig), null);
    }

    private static Found none(String why) {
        return new Found(Optional.empty(), why);
    }

    /** Null when {@code url}/version answers as an API server does, else what went wrong. */
    private static String answersVersion(String url) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(url + "/version"))
                            .timeout(TIMEOUT)
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200 || !r.body().contains("\"gitVersion\"")) {
                return "answers /version with HTTP " + r.statusCode() + ", not as a Kubernetes API server";
            }
            return null;
        } catch (IOException | IllegalArgumentException e) {
            return "does not answer (" + e.getClass().getSimpleName() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "was not asked (interrupted)";
        }
    }
}
