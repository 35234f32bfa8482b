package io.hotsched.conformance.runner;

/**
 * The outcome of one case.
 *
 * @param file the case file's name
 * @param name the case's name, for example {@code dp-1}
 * @param upstream the upstream test and table entry it comes from
 * @param detail what differed (FAIL), or why hotsched differs on purpose (DIVERGES)
 */
public record CaseResult(String file, String plugin, String name, String upstream, Outcome outcome, String detail) {

    /**
     * PASS: as upstream. DIVERGES: a documented difference whose own check passed. FAIL: anything
     * else. NOT_PLUGIN_CASES: the file holds no plugin cases (framework vectors), said so and not counted.
     */
    public enum Outcome {
        PASS,
        DIVERGES,
        FAIL,
        NOT_PLUGIN_CASES
    }

    public boolean failed() {
        return outcome == Outcome.FAIL;
    }
}
