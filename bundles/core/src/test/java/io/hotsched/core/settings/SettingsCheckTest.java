package io.hotsched.core.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.core.osgi.SchedulerSettings;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every field of {@code etc/io.hotsched.scheduler.cfg} wrong in type and below its bound, and a
 * misspelled key: each named with file, field, value and what is valid, and the default used in
 * its place (SCR's own conversion threw {@code NumberFormatException: For input string: "many"}
 * and the scheduler never started). The Kubernetes bundle's settings have the same rows in its
 * {@code KubeSettingsCheckTest}.
 */
class SettingsCheckTest {

    static final String FILE = "/opt/hotsched/etc/io.hotsched.scheduler.cfg";

    static Map<String, Object> cfg(String key, Object value) {
        return Map.of("service.pid", "io.hotsched.scheduler", "felix.fileinstall.filename", "file:" + FILE, key, value);
    }

    /** For each numeric attribute: a word where a number goes, and one below its {@link Min}. */
    static Stream<Arguments> wrongValues() {
        List<Arguments> rows = new ArrayList<>();
        Method[] attributes = SchedulerSettings.class.getDeclaredMethods();
        Arrays.sort(attributes, Comparator.comparing(Method::getName));
        for (Method m : attributes) {
            if (m.getReturnType() == String.class) {
                continue;
            }
            rows.add(Arguments.of(m.getName(), "many", "\"many\": must be an integer"));
            Min min = m.getAnnotation(Min.class);
            if (min != null) {
                long below = min.value() - 1;
                rows.add(Arguments.of(
                        m.getName(), Long.toString(below), "\"" + below + "\": must be at least " + min.value()));
            }
        }
        return rows.stream();
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("wrongValues")
    void aWrongValueIsNamedAndTheDefaultUsed(String field, String value, String why) throws Exception {
        List<String> problems = new ArrayList<>();
        SchedulerSettings s = SettingsCheck.read(SchedulerSettings.class, cfg(field, value), null, problems::add);
        Method m = SchedulerSettings.class.getMethod(field);
        assertEquals(
                List.of(FILE + ": " + field + ": Invalid value: " + why + "; using the default " + m.getDefaultValue()),
                problems);
        assertEquals(m.getDefaultValue(), m.invoke(s));
    }

    @Test
    void goodValuesAreReadAsStringsFromFilesAndAsNumbersFromConfigAdmin() {
        List<String> problems = new ArrayList<>();
        SchedulerSettings s = SettingsCheck.read(
                SchedulerSettings.class,
                Map.of("bindingThreads", " 4 ", "timeoutFilterMillis", 250L, "explanations", 7, "metricsAddress", ""),
                null,
                problems::add);
        assertEquals(List.of(), problems);
        assertEquals(4, s.bindingThreads());
        assertEquals(250L, s.timeoutFilterMillis());
        assertEquals(7, s.explanations());
        assertEquals(30, s.assumedPodTtlSeconds(), "absent: the default");
    }

    @Test
    void aChangeWithAWrongValueKeepsTheValueInForce() {
        SchedulerSettings inForce =
                SettingsCheck.read(SchedulerSettings.class, Map.of("bindingThreads", "4"), null, p -> {});
        List<String> problems = new ArrayList<>();
        SchedulerSettings changed = SettingsCheck.read(
                SchedulerSettings.class,
                Map.of("bindingThreads", "4x", "quarantineThreshold", "9"),
                inForce,
                problems::add);
        assertEquals(
                List.of("the configuration: bindingThreads: Invalid value: \"4x\": must be an integer; keeping 4"),
                problems);
        assertEquals(4, changed.bindingThreads());
        assertEquals(9, changed.quarantineThreshold());
    }

    @Test
    void aNumberPastAnIntAndAMisspelledKeyAreNamed() {
        List<String> problems = new ArrayList<>();
        SettingsCheck.read(SchedulerSettings.class, cfg("bindingThreads", "99999999999"), null, problems::add);
        SettingsCheck.read(SchedulerSettings.class, cfg("bindingThread", "4"), null, problems::add);
        assertEquals(
                List.of(
                        FILE + ": bindingThreads: Invalid value: \"99999999999\": must be a 32-bit integer"
                                + " (-2147483648 to 2147483647); using the default 16",
                        FILE + ": bindingThread: unknown setting, ignored; did you mean bindingThreads?"),
                problems);
    }

    /** The types the settings of other bundles use. */
    @interface Kinds {
        boolean report() default true;

        @Min(0)
        double qps() default 50;
    }

    @Test
    void aBooleanIsTrueOrFalseAndADoubleANumber() {
        List<String> problems = new ArrayList<>();
        Kinds k = SettingsCheck.read(Kinds.class, Map.of("report", "yes", "qps", "fast"), null, problems::add);
        assertEquals(
                List.of(
                        "the configuration: report: Invalid value: \"yes\": must be true or false; using the default true",
                        "the configuration: qps: Invalid value: \"fast\": must be a number; using the default 50.0"),
                problems.stream().sorted(Comparator.reverseOrder()).toList());
        assertTrue(k.report());
        assertEquals(50.0, k.qps());
        assertEquals(List.of(), read(Map.of("report", "FALSE", "qps", "2.5")), "FALSE and 2.5 are good");
    }

    private static List<String> read(Map<String, Object> properties) {
        List<String> problems = new ArrayList<>();
        Kinds k = SettingsCheck.read(Kinds.class, properties, null, problems::add);
        assertEquals(false, k.report());
        assertEquals(2.5, k.qps());
        return problems;
    }
}
