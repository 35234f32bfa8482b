package io.hotsched.bench.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class HistogramsTest {

    private static TreeMap<Double, Double> buckets(double... boundCount) {
        TreeMap<Double, Double> b = new TreeMap<>();
        for (int i = 0; i < boundCount.length; i += 2) {
            b.put(boundCount[i], boundCount[i + 1]);
        }
        return b;
    }

    @Test
    void quantilesInterpolateInsideTheRanksBucketAsPrometheusDoes() {
        TreeMap<Double, Double> b = buckets(1, 10, 2, 20, Double.POSITIVE_INFINITY, 20);
        assertEquals(1.0, Histograms.quantile(0.5, b), 1e-9);
        assertEquals(1.8, Histograms.quantile(0.9, b), 1e-9);
        assertEquals(0.5, Histograms.quantile(0.25, b), 1e-9);
        // a rank in +Inf answers the highest finite bound
        assertEquals(2.0, Histograms.quantile(0.9, buckets(1, 0, 2, 5, Double.POSITIVE_INFINITY, 10)), 1e-9);
    }

    @Test
    void theMeasuredPhaseIsTheDifferenceOfTwoScrapesMergedOverOtherLabels() {
        String before = """
                # TYPE scheduler_scheduling_attempt_duration_seconds histogram
                scheduler_scheduling_attempt_duration_seconds_bucket{result="scheduled",profile="a",le="0.001"} 5
                scheduler_scheduling_attempt_duration_seconds_bucket{result="scheduled",profile="a",le="0.002"} 5
                scheduler_scheduling_attempt_duration_seconds_bucket{result="scheduled",profile="a",le="+Inf"} 5
                scheduler_scheduling_attempt_duration_seconds_sum{result="scheduled",profile="a"} 0.004
                scheduler_scheduling_attempt_duration_seconds_count{result="scheduled",profile="a"} 5
                """;
        String after = """
                scheduler_scheduling_attempt_duration_seconds_bucket{result="scheduled",profile="a",le="0.001"} 5
                scheduler_scheduling_attempt_duration_seconds_bucket{result="scheduled",profile="a",le="0.002"} 9
                scheduler_scheduling_attempt_duration_seconds_bucket{result="scheduled",profile="a",le="+Inf"} 9
                scheduler_scheduling_attempt_duration_seconds_sum{result="scheduled",profile="a"} 0.01
                scheduler_scheduling_attempt_duration_seconds_count{result="scheduled",profile="a"} 9
                scheduler_scheduling_attempt_duration_seconds_bucket{result="scheduled",profile="b",le="0.001"} 0
                scheduler_scheduling_attempt_duration_seconds_bucket{result="scheduled",profile="b",le="0.002"} 4
                scheduler_scheduling_attempt_duration_seconds_bucket{result="scheduled",profile="b",le="+Inf"} 4
                scheduler_scheduling_attempt_duration_seconds_sum{result="scheduled",profile="b"} 0.006
                """;
        Map<String, Histograms.Series> phase = Histograms.delta(Histograms.parse(before), Histograms.parse(after));
        Histograms.Item i = Histograms.summarise(
                phase, "scheduler_scheduling_attempt_duration_seconds", Map.of("result", "scheduled"));
        assertEquals(8, i.count());
        // (0.010 - 0.004 + 0.006) / 8 s, in ms
        assertEquals(1.5, i.average(), 1e-9);
        // all 8 in (1 ms, 2 ms]: the median at rank 4 is half-way
        assertEquals(1.5, i.p50(), 1e-9);
        assertNull(Histograms.summarise(
                phase, "scheduler_scheduling_attempt_duration_seconds", Map.of("result", "error")));
        assertEquals(
                List.of("scheduled"),
                Histograms.standard(phase).stream()
                        .map(x -> x.labels().get("result"))
                        .toList());
    }
}
