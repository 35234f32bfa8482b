package io.hotsched.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command's report and exit codes, on a directory of cases written here. */
class MainTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static final String CASES = """
            {"plugin": "NodeName", "cases": [
              {"name": "right", "upstreamTest": "T", "upstreamCase": "matches", "kind": "filter",
               "input": {"pod": {"spec": {"nodeName": "foo"}}, "node": {"metadata": {"name": "foo"}}},
               "expected": {"status": {"code": "Success"}}},
              {"name": "wrong", "upstreamTest": "T", "upstreamCase": "claims a match", "kind": "filter",
               "input": {"pod": {"spec": {"nodeName": "bar"}}, "node": {"metadata": {"name": "foo"}}},
               "expected": {"status": {"code": "Success"}}}
            ]}
            """;

    @Test
    void reportsEachCaseAndTheTotalAndFailsOnAFailure(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("nodename.json"), CASES);
        assertEquals(1, run(dir.toString()));
        String report = out.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains("PASS     right [T: matches]"), report);
        assertTrue(report.contains("FAIL     wrong [T: claims a match]"), report);
        assertTrue(report.contains("expected <SUCCESS> but was <UNSCHEDULABLE_AND_UNRESOLVABLE>"), report);
        assertTrue(report.contains("2 cases: 1 passed, 0 diverge on purpose (checked), 1 failed"), report);
    }

    @Test
    void aPluginNoBundleProvidesFailsItsCases(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("x.json"), CASES.replace("NodeName", "NoSuchPlugin"));
        assertEquals(1, run("--failures-only", dir.toString()));
        assertTrue(out.toString(StandardCharsets.UTF_8)
                .contains("plugin NoSuchPlugin is not provided by any bundle on the class path"));
    }

    @Test
    void theBundledCasesAllPassOrDivergeOnPurpose() {
        assertEquals(0, run("--failures-only"), out.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("0 failed"));
    }

    @Test
    void aFileOfFrameworkVectorsIsNamedAndNotCounted(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("framework.json"), "{\"component\": \"scheduler framework\", \"cases\": []}");
        assertEquals(0, run(dir.toString()));
        String report = out.toString(StandardCharsets.UTF_8);
        assertTrue(
                report.contains("framework.json: not run here: vectors of component \"scheduler framework\""), report);
        assertTrue(report.contains("0 cases: 0 passed"), report);
    }

    @Test
    void aDirectoryWithoutCasesIsACommandLineError(@TempDir Path dir) {
        assertEquals(2, run(dir.toString()));
        assertTrue(
                err.toString(StandardCharsets.UTF_8).contains("no *.json case files"),
                err.toString(StandardCharsets.UTF_8));
        assertEquals(2, run("--bogus"));
    }
}
