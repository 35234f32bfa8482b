package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.core.settings.Min;
import io.hotsched.core.settings.SettingsCheck;
import io.hotsched.kube.delivery.DeliverySettings;
import java.io.Reader;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every field of {@code etc/io.hotsched.kube.cfg} and {@code etc/io.hotsched.delivery.cfg} wrong
 * in type, and each bounded one below its bound: named with file, field, value and what is valid,
 * and the default used (SCR's conversion threw, and the cluster connection never started).
 */
class KubeSettingsCheckTest {

    static Stream<Arguments> wrongValues() {
        List<Arguments> rows = new ArrayList<>();
        for (Class<? extends Annotation> type : List.of(KubeSettings.class, DeliverySettings.class)) {
            Method[] attributes = type.getDeclaredMethods();
            Arrays.sort(attributes, Comparator.comparing(Method::getName));
            for (Method m : attributes) {
                Class<?> t = m.getReturnType();
                if (t == String.class) {
                    continue;
                }
                String why = t == boolean.class
                        ? "must be true or false"
                        : t == double.class ? "must be a number" : "must be an integer";
                rows.add(Arguments.of(type, m, "many", "\"many\": " + why));
                Min min = m.getAnnotation(Min.class);
                if (min != null) {
                    rows.add(Arguments.of(type, m, "-1", "\"-1\": must be at least " + min.value()));
                }
            }
        }
        return rows.stream();
    }

    /** The files as shipped (the distribution's etc/) hold only settings their components know, each valid. */
    @ParameterizedTest(name = "{1}")
    @MethodSource("shipped")
    void theShippedFileIsReadWithoutAProblem(Class<? extends Annotation> type, String name) throws Exception {
        Path file = Path.of("../../configs", name);
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        Map<String, Object> properties = new HashMap<>();
        p.forEach((k, v) -> properties.put((String) k, ((String) v).trim()));
        properties.put("felix.fileinstall.filename", file.toUri().toString());
        List<String> problems = new ArrayList<>();
        SettingsCheck.read(type, properties, null, problems::add);
        assertEquals(List.of(), problems);
        assertTrue(properties.size() > 3, "read " + file.toAbsolutePath());
    }

    static Stream<Arguments> shipped() {
        return Stream.of(
                Arguments.of(KubeSettings.class, "io.hotsched.kube.cfg"),
                Arguments.of(DeliverySettings.class, "io.hotsched.delivery.cfg"));
    }

    @ParameterizedTest(name = "{1} = {2}")
    @MethodSource("wrongValues")
    void aWrongValueIsNamedAndTheDefaultUsed(Class<? extends Annotation> type, Method m, String value, String why)
            throws Exception {
        String file = "/opt/hotsched/etc/" + (type == KubeSettings.class ? "io.hotsched.kube" : "io.hotsched.delivery")
                + ".cfg";
        List<String> problems = new ArrayList<>();
        Annotation s = SettingsCheck.read(
                type, Map.of("felix.fileinstall.filename", "file:" + file, m.getName(), value), null, problems::add);
        assertEquals(
                List.of(file + ": " + m.getName() + ": Invalid value: " + why + "; using the default "
                        + m.getDefaultValue()),
                problems);
        assertEquals(m.getDefaultValue(), m.invoke(s));
    }
}
