package io.hotsched.conformance.defaults;

import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.conformance.runner.Check;
import io.hotsched.conformance.runner.ConformanceRunner;
import io.hotsched.core.runtime.PluginArgsImpl;
import io.hotsched.plugins.defaults.helper.BrokenLinear;
import io.hotsched.plugins.defaults.noderesourcesfit.InsufficientResource;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFit;
import io.hotsched.testing.FakeHandle;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * NodeResourcesFit's cases: through the extension points, then the insufficient resources that
 * upstream's Filter tests also compare; and its scoring function's own table ("helper").
 */
final class NodeResourcesFitCases {

    private NodeResourcesFitCases() {}

    static void run(PluginFactory factory, JsonNode c) throws Exception {
        if (c.path("kind").asText().equals("helper")) {
            brokenLinear(c.path("input"), c.path("expected"));
            return;
        }
        ConformanceRunner.run(factory, c);
        JsonNode in = c.path("input");
        JsonNode want = c.path("expected");
        if (want.has("insufficientResources")
                && factory.create(new PluginArgsImpl(ConformanceRunner.args(in)), new FakeHandle())
                        instanceof NodeResourcesFit fit) {
            List<String> expected = new ArrayList<>();
            for (JsonNode r : want.get("insufficientResources")) {
                expected.add(new InsufficientResource(
                                r.path("resourceName").asText(),
                                r.path("reason").asText(),
                                r.path("requested").asLong(),
                                r.path("used").asLong(),
                                r.path("capacity").asLong(),
                                r.path("unresolvable").asBoolean(false))
                        .toString());
            }
            PodInfo pod = PodInfo.of(ConformanceRunner.pod(in.path("pod")));
            List<String> actual = fit
                    .insufficientResources(pod, ConformanceRunner.nodes(in).get(0))
                    .stream()
                    .map(Object::toString)
                    .toList();
            Check.equal(expected, actual, "insufficient resources");
        }
    }

    private static void brokenLinear(JsonNode in, JsonNode want) {
        JsonNode points = in.path("points(utilization,score)");
        long[] xs = new long[points.size()];
        long[] ys = new long[points.size()];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = points.get(i).get(0).asLong();
            ys[i] = points.get(i).get(1).asLong();
        }
        BrokenLinear f = new BrokenLinear(xs, ys);
        for (JsonNode pair : want.path("f(p)=")) {
            Check.equal(pair.get(1).asLong(), f.apply(pair.get(0).asLong()), "f(" + pair.get(0) + ")");
        }
    }
}
