package io.hotsched.plugins.loadaware;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A node's load as {@code sched:state LoadAwareScheduling [node]} shows it. */
final class StateView {

    private StateView() {}

    static Map<String, Object> of(
            NodeLoad load,
            List<AssignedPod> pods,
            Vectorizer v,
            Instant now,
            long expirationSeconds,
            boolean detailed) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (!load.found()) {
            m.put("nodeMetric", "none (Filter passes the node, Score gives it 0)");
            m.put("pods", pods.size());
            return m;
        }
        NodeMetricView metric = load.metric();
        m.put(
                "nodeMetric",
                (metric.updateTime() == null ? "no updateTime" : "updated " + metric.updateTime())
                        + (metric.expired(now, expirationSeconds) ? ", expired" : "") + ", reported every "
                        + metric.reportIntervalMillis() / 1000 + "s");
        m.put("usage", metric.nodeUsage() == null ? "none" : vector(v, metric.nodeUsage()));
        m.put("delta", vector(v, load.nodeDelta()));
        m.put("estimated", vector(v, load.nodeEstimated()));
        m.put("prodUsage", vector(v, load.prodUsage()));
        m.put("prodDelta", vector(v, load.prodDelta()));
        if (!detailed) {
            m.put("pods", pods.size());
            return m;
        }
        List<Object> rows = new ArrayList<>();
        for (AssignedPod p : pods) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("pod", p.key());
            row.put("estimated", p.estimated() == null ? "none" : vector(v, p.estimated()));
            row.put("scheduled", Instant.ofEpochMilli(p.timestampMillis()).toString());
            row.put("inDelta", load.nodeDeltaPods().contains(p.key()));
            if (p.prod()) {
                row.put("prod", true);
            }
            rows.add(row);
        }
        m.put("pods", rows);
        return m;
    }

    /** cpu as millicores ("2200m"), the rest in units. */
    static Map<String, String> vector(Vectorizer v, long[] values) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            String name = v.names().get(i);
            m.put(name, name.equals("cpu") ? values[i] + "m" : String.valueOf(values[i]));
        }
        return m;
    }
}
