package io.hotsched.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.conformance.runner.CaseResult;
import io.hotsched.conformance.runner.CaseResult.Outcome;
import io.hotsched.conformance.runner.ConformanceRunner;
import io.hotsched.conformance.runner.Coverage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-plugin coverage line: upstream's counted cases, the ones data expresses, and how they ran. */
class CoverageTest {

    private static final String MANIFEST = """
            {"sources": {"k": {"repo": "o/r", "tag": "v1"}},
             "plugins": {
               "P": {"source": "k", "files": {
                 "a_test.go": {"tests": {"TestA": ["one", "two", "three"], "TestB": ["x"]}},
                 "b_test.go": {"tests": null}}},
               "Q": {"source": "k", "files": {"q_test.go": {"tests": {"TestQ": ["q"]}}}}}}
            """;

    private static CaseResult result(String plugin, String upstream, Outcome o) {
        return new CaseResult("f.json", plugin, "n", upstream, o, "");
    }

    @Test
    void countsExpressedPassingDivergingAndDataOutsideTheTables() {
        Coverage c = new Coverage(ConformanceRunner.JSON.readTree(MANIFEST));
        List<Coverage.Line> lines = c.lines(List.of(
                result("P", "TestA: one", Outcome.PASS),
                // a variant of the same upstream case: still one upstream case
                result("P", "a_test.go TestA/variant: one", Outcome.PASS),
                result("P", "TestA: two", Outcome.DIVERGES),
                result("P", "TestB: x", Outcome.FAIL),
                result("P", "TestA: renamed", Outcome.PASS),
                result("R", "TestR: r", Outcome.PASS)));
        assertEquals(3, lines.size(), lines::toString);
        Coverage.Line p = lines.get(0);
        assertEquals(new Coverage.Line("P", "o/r v1", 2, 1, 4, 3, 1, 1, 1), p);
        assertTrue(
                p.toString().startsWith("P (o/r v1): 4 upstream table cases in the 1 of 2 test files counted"),
                p::toString);
        assertTrue(p.toString().contains("3 expressed as data: 1 pass, 1 diverge, 1 fail; 1 data cases"), p::toString);
        assertEquals(
                "Q (o/r v1): 1 upstream table cases, 0 expressed as data: 0 pass, 0 diverge, 0 fail; "
                        + "0 data cases match no counted upstream table case",
                lines.get(1).toString());
        assertEquals(
                "R: no upstream test files in the manifest; 1 data cases",
                lines.get(2).toString());
    }
}
