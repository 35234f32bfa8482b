package io.hotsched.bench.perf;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.type.TypeReference;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The test cases in scheduler_perf's YAML shape, shipped as resources under {@code perf/}: each
 * file is a list of {@code {name, defaultPodTemplatePath, workloadTemplate, workloads}}; template
 * paths are relative to the file, as upstream's.
 */
final class PerfCases {

    static final List<String> FILES = List.of("misc", "affinity", "topology_spreading");
    static final YAMLMapper YAML = YAMLMapper.builder().build();

    /** One workload of a case: its parameters and the upstream floor (0: none). */
    record Workload(String name, Map<String, Object> params, double threshold) {}

    record Case(
            String name,
            String dir,
            String defaultPodTemplate,
            List<Map<String, Object>> ops,
            List<Workload> workloads) {}

    private PerfCases() {}

    static List<Case> load() throws IOException {
        List<Case> out = new ArrayList<>();
        for (String dir : FILES) {
            List<Map<String, Object>> cases;
            try (InputStream in = resource("perf/" + dir + "/performance-config.yaml")) {
                cases = YAML.readValue(in, new TypeReference<List<Map<String, Object>>>() {});
            }
            for (Map<String, Object> c : cases) {
                List<Workload> workloads = new ArrayList<>();
                for (Object o : list(c.get("workloads"))) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> w = (Map<String, Object>) o;
                    @SuppressWarnings("unchecked")
                    Map<String, Object> params = (Map<String, Object>) w.getOrDefault("params", Map.of());
                    Object thr = w.get("threshold");
                    workloads.add(new Workload(
                            (String) w.get("name"), params, thr instanceof Number n ? n.doubleValue() : 0));
                }
                @SuppressWarnings("unchecked")
                List<Map<String, Object>> ops = (List<Map<String, Object>>) (List<?>) list(c.get("workloadTemplate"));
                out.add(new Case(
                        (String) c.get("name"), dir, (String) c.get("defaultPodTemplatePath"), ops, workloads));
            }
        }
        return out;
    }

    /** The template at {@code path}, relative to the case file's folder, as plain YAML values. */
    static Map<String, Object> template(Case c, String path) throws IOException {
        String resolved =
                Path.of("perf", c.dir()).resolve(path).normalize().toString().replace('\\', '/');
        try (InputStream in = resource(resolved)) {
            return YAML.readValue(in, new TypeReference<Map<String, Object>>() {});
        }
    }

    private static InputStream resource(String path) throws IOException {
        InputStream in = PerfCases.class.getClassLoader().getResourceAsStream(path);
        if (in == null) {
            throw new IOException("no resource " + path);
        }
        return in;
    }

    private static List<?> list(Object o) {
        return o instanceof List<?> l ? l : List.of();
    }
}
