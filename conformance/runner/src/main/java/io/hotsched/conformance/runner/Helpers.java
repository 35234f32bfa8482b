package io.hotsched.conformance.runner;

import io.hotsched.api.framework.HostPort;
import io.hotsched.api.framework.ImageStateSummary;
import io.hotsched.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** Upstream's tests of plugin helpers ("helper" cases), checked against what our plugins use. */
final class Helpers {

    private Helpers() {}

    static void run(String plugin, JsonNode c) {
        JsonNode in = c.path("input");
        JsonNode want = c.path("expected");
        switch (plugin) {
            case "NodePorts" -> {
                List<Integer> ports = new ArrayList<>();
                for (JsonNode p : in.path("pods")) {
                    for (HostPort hp : PodInfo.of(ConformanceRunner.pod(p)).hostPorts()) {
                        ports.add(hp.port());
                    }
                }
                List<Integer> expected = new ArrayList<>();
                want.path("hostPortsConsidered").forEach(x -> expected.add(x.asInt()));
                Check.equal(expected, ports, "host ports considered");
            }
            case "ImageLocality" ->
                Check.equal(
                        want.path("normalized").asText(),
                        ImageStateSummary.normalizedName(in.path("image").asText()),
                        "normalized image name");
            default ->
                Check.fail("no helper check for plugin " + plugin + ": "
                        + c.path("name").asText());
        }
    }
}
