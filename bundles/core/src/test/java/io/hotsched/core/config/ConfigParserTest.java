package io.hotsched.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigParserTest {

    private static final String HEAD = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

    @Test
    void minimalFileGetsUpstreamDefaults() throws Exception {
        SchedulerConfig c = ConfigParser.parse(HEAD, "s.yaml");
        assertEquals(16, c.parallelism());
        assertEquals(0, c.percentageOfNodesToScore());
        assertEquals(1, c.podInitialBackoffSeconds());
        assertEquals(10, c.podMaxBackoffSeconds());
        assertEquals(1, c.profiles().size());
        ProfileConfig p = c.profiles().get(0);
        assertEquals("default-scheduler", p.schedulerName());
        assertEquals(
                DefaultPlugins.MULTI_POINT,
                p.plugins(ExtensionPoint.MULTI_POINT).enabled());
    }

    @Test
    void upstreamStyleFileLoads() throws Exception {
        String yaml = HEAD + """
                parallelism: 8
                percentageOfNodesToScore: 40
                podInitialBackoffSeconds: 2
                podMaxBackoffSeconds: 20
                leaderElection:
                  leaderElect: false
                  leaseDuration: 15s
                clientConnection:
                  qps: 50
                  burst: 100
                profiles:
                - schedulerName: default-scheduler
                - schedulerName: bin-packing
                  percentageOfNodesToScore: 100
                  plugins:
                    score:
                      disabled:
                      - name: NodeResourcesBalancedAllocation
                      enabled:
                      - name: NodeResourcesFit
                        weight: 5
                  pluginConfig:
                  - name: NodeResourcesFit
                    args:
                      scoringStrategy:
                        type: MostAllocated
                        resources:
                        - name: cpu
                          weight: 1
                """;
        SchedulerConfig c = ConfigParser.parse(yaml, "s.yaml");
        assertEquals(8, c.parallelism());
        assertEquals(40, c.percentageOfNodesToScore());
        assertNull(c.profile("default-scheduler").percentageOfNodesToScore());
        ProfileConfig bp = c.profile("bin-packing");
        assertEquals(100, bp.percentageOfNodesToScore());
        assertEquals(
                List.of("NodeResourcesBalancedAllocation"),
                bp.plugins(ExtensionPoint.SCORE).disabled());
        assertEquals(5, bp.plugins(ExtensionPoint.SCORE).enabled().get(0).weight());
        assertEquals(
                DefaultPlugins.MULTI_POINT.size(),
                bp.plugins(ExtensionPoint.MULTI_POINT).enabled().size(),
                "defaults kept");
        PluginConfig fit = bp.pluginConfig().get("NodeResourcesFit");
        assertEquals("MostAllocated", ((Map<?, ?>) fit.args().get("scoringStrategy")).get("type"));
        assertEquals(28, fit.lines().get("scoringStrategy.type"), "line of the field, for error messages");
    }

    @Test
    void multiPointMergeReplacesInPlaceAndAppends() throws Exception {
        String yaml = HEAD + """
                profiles:
                - plugins:
                    multiPoint:
                      enabled:
                      - name: TaintToleration
                        weight: 10
                      - name: LoadAwareScheduling
                        weight: 1
                      disabled:
                      - name: ImageLocality
                """;
        List<PluginRef> multi = ConfigParser.parse(yaml, "s.yaml")
                .profiles()
                .get(0)
                .plugins(ExtensionPoint.MULTI_POINT)
                .enabled();
        List<String> names = multi.stream().map(PluginRef::name).collect(Collectors.toList());
        assertTrue(names.indexOf("TaintToleration") == 4 && multi.get(4).weight() == 10, names.toString());
        assertEquals("LoadAwareScheduling", names.get(names.size() - 1));
        assertTrue(!names.contains("ImageLocality"));
    }

    @Test
    void disablingStarDropsAllDefaults() throws Exception {
        String yaml = HEAD + """
                profiles:
                - plugins:
                    multiPoint:
                      enabled:
                      - name: PrioritySort
                      - name: DefaultBinder
                      disabled:
                      - name: "*"
                """;
        List<PluginRef> multi = ConfigParser.parse(yaml, "s.yaml")
                .profiles()
                .get(0)
                .plugins(ExtensionPoint.MULTI_POINT)
                .enabled();
        assertEquals(
                List.of("PrioritySort", "DefaultBinder"),
                multi.stream().map(PluginRef::name).toList());
    }

    static Stream<Arguments> badConfigs() {
        // the empty file's message is HostileConfigTest's first row
        return Stream.of(
                Arguments.of("not YAML", "a: [1, 2\n", "s.yaml:2: not valid YAML"),
                Arguments.of(
                        "wrong apiVersion",
                        "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n",
                        "s.yaml:1: apiVersion: Unsupported value: \"kubescheduler.config.k8s.io/v1beta3\": supported values: \"kubescheduler.config.k8s.io/v1\""),
                Arguments.of(
                        "missing kind",
                        "apiVersion: kubescheduler.config.k8s.io/v1\n",
                        "s.yaml:1: kind: Required value: must be \"KubeSchedulerConfiguration\""),
                Arguments.of(
                        "wrong kind",
                        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: Pod\n",
                        "s.yaml:2: kind: Unsupported value: \"Pod\""),
                Arguments.of(
                        "unknown top field",
                        HEAD + "percentageOfNodeToScore: 50\n",
                        "s.yaml:3: percentageOfNodeToScore: unknown field \"percentageOfNodeToScore\""),
                Arguments.of(
                        "parallelism zero",
                        HEAD + "parallelism: 0\n",
                        "s.yaml:3: parallelism: Invalid value: 0: should be an integer value greater than zero"),
                Arguments.of(
                        "parallelism not a number",
                        HEAD + "parallelism: many\n",
                        "s.yaml:3: parallelism: Invalid value: \"many\": must be an integer"),
                Arguments.of(
                        "percentage over 100",
                        HEAD + "percentageOfNodesToScore: 101\n",
                        "s.yaml:3: percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"),
                Arguments.of(
                        "negative percentage in profile",
                        HEAD + "profiles:\n- percentageOfNodesToScore: -1\n",
                        "s.yaml:4: profiles[0].percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]"),
                Arguments.of(
                        "initial backoff zero",
                        HEAD + "podInitialBackoffSeconds: 0\n",
                        "s.yaml:3: podInitialBackoffSeconds: Invalid value: 0: must be greater than 0"),
                Arguments.of(
                        "max below initial",
                        HEAD + "podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 2\n",
                        "s.yaml:4: podMaxBackoffSeconds: Invalid value: 2: must be greater than or equal to podInitialBackoffSeconds (5)"),
                Arguments.of(
                        "profile without name among several",
                        HEAD + "profiles:\n- schedulerName: a\n- percentageOfNodesToScore: 10\n",
                        "s.yaml:5: profiles[1].schedulerName: Required value"),
                Arguments.of(
                        "duplicate profile",
                        HEAD + "profiles:\n- schedulerName: a\n- schedulerName: a\n",
                        "s.yaml:5: profiles[1].schedulerName: Duplicate value: \"a\""),
                Arguments.of(
                        "unknown extension point",
                        HEAD + "profiles:\n- plugins:\n    filters:\n      enabled: []\n",
                        "s.yaml:5: profiles[0].plugins.filters: unknown field \"filters\""),
                Arguments.of(
                        "plugin without name",
                        HEAD + "profiles:\n- plugins:\n    filter:\n      enabled:\n      - weight: 1\n",
                        "s.yaml:7: profiles[0].plugins.filter.enabled[0].name: Required value"),
                Arguments.of(
                        "plugin twice at a point",
                        HEAD + "profiles:\n- plugins:\n    filter:\n      enabled:\n      - name: A\n      - name: A\n",
                        "s.yaml:8: profiles[0].plugins.filter.enabled[1].name: Duplicate value: \"A\": plugin \"A\" already registered as \"FilterPlugin\""),
                Arguments.of(
                        "negative weight",
                        HEAD
                                + "profiles:\n- plugins:\n    score:\n      enabled:\n      - name: A\n        weight: -3\n",
                        "s.yaml:8: profiles[0].plugins.score.enabled[0].weight: Invalid value: -3: must not be negative"),
                Arguments.of(
                        "weight not a number",
                        HEAD
                                + "profiles:\n- plugins:\n    score:\n      enabled:\n      - name: A\n        weight: heavy\n",
                        "s.yaml:8: profiles[0].plugins.score.enabled[0].weight: Invalid value: \"heavy\": must be an integer"),
                Arguments.of(
                        "enabled not a list",
                        HEAD + "profiles:\n- plugins:\n    score:\n      enabled: A\n",
                        "s.yaml:6: profiles[0].plugins.score.enabled: must be a list"),
                Arguments.of(
                        "duplicate pluginConfig",
                        HEAD + "profiles:\n- pluginConfig:\n  - name: A\n    args: {}\n  - name: A\n    args: {}\n",
                        "s.yaml:7: profiles[0].pluginConfig[1]: Duplicate value: \"A\""),
                Arguments.of(
                        "args not a mapping",
                        HEAD + "profiles:\n- pluginConfig:\n  - name: A\n    args: [1]\n",
                        "s.yaml:6: profiles[0].pluginConfig[0].args: must be a mapping of the plugin's arguments"),
                Arguments.of(
                        "profiles not a list",
                        HEAD + "profiles: default-scheduler\n",
                        "s.yaml:3: profiles: must be a list"),
                Arguments.of(
                        "bad duration",
                        HEAD + "leaderElection:\n  leaseDuration: fifteen\n",
                        "s.yaml:4: leaderElection.leaseDuration: Invalid value: \"fifteen\": must be a duration"),
                Arguments.of(
                        "bad boolean",
                        HEAD + "leaderElection:\n  leaderElect: perhaps\n",
                        "s.yaml:4: leaderElection.leaderElect: Invalid value: \"perhaps\": must be true or false"),
                Arguments.of(
                        "unknown field in profile",
                        HEAD + "profiles:\n- schedulerName: a\n  plugin: {}\n",
                        "s.yaml:5: profiles[0].plugin: unknown field \"plugin\""),
                Arguments.of(
                        "field given twice",
                        HEAD + "parallelism: 4\nparallelism: 8\n",
                        "s.yaml:4: parallelism: field given twice"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badConfigs")
    void badConfigIsRefusedWithFileLineAndField(String name, String yaml, String expected) {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigParser.parse(yaml, "s.yaml"));
        assertTrue(
                e.problems().stream().anyMatch(p -> p.toString().startsWith(expected)),
                "expected a problem starting with\n  " + expected + "\nbut got\n  " + e.getMessage());
    }

    @Test
    void allProblemsAreReportedAtOnce() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> ConfigParser.parse(HEAD + "parallelism: 0\npercentageOfNodesToScore: 200\n", "s.yaml"));
        assertEquals(2, e.problems().size(), e.getMessage());
    }

    @Test
    void extendersAreReadWithUpstreamsDefaults() throws Exception {
        String yaml = HEAD + """
                extenders:
                - urlPrefix: "http://127.0.0.1:8888/scheduler"
                  filterVerb: filter
                  prioritizeVerb: prioritize
                  weight: 3
                  nodeCacheCapable: true
                  ignorable: true
                  managedResources:
                  - name: example.com/gpu
                    ignoredByScheduler: true
                - urlPrefix: "https://binder.example:443/"
                  bindVerb: bind
                  httpTimeout: 1m30s
                  enableHTTPS: true
                  tlsConfig:
                    insecure: false
                    serverName: binder.example
                    caData: LS0tLS1CRUdJTg==
                """;
        List<ExtenderConfig> ext = ConfigParser.parse(yaml, "s.yaml").extenders();
        assertEquals(2, ext.size());
        ExtenderConfig a = ext.get(0);
        assertEquals("http://127.0.0.1:8888/scheduler", a.urlPrefix());
        assertEquals("filter", a.filterVerb());
        assertEquals("", a.bindVerb());
        assertEquals(3, a.weight());
        assertEquals(Duration.ofSeconds(5), a.httpTimeout(), "upstream's DefaultExtenderTimeout");
        assertTrue(a.nodeCacheCapable() && a.ignorable());
        assertEquals(List.of(new ExtenderConfig.ManagedResource("example.com/gpu", true)), a.managedResources());
        ExtenderConfig b = ext.get(1);
        assertEquals(Duration.ofSeconds(90), b.httpTimeout());
        assertTrue(b.enableHTTPS());
        assertEquals("binder.example", b.tls().serverName());
        assertEquals("-----BEGIN", new String(b.tls().caData(), StandardCharsets.US_ASCII));
    }

    @Test
    void extendersAreValidatedAsUpstreamDoes() {
        String yaml = HEAD + """
                extenders:
                - urlPrefix: "http://a/"
                  prioritizeVerb: prioritize
                  bindVerb: bind
                  managedResources:
                  - name: cpu
                  - name: example.com/gpu
                - urlPrefix: "http://b/"
                  bindVerb: bind
                  managedResources:
                  - name: example.com/gpu
                - filterVerb: filter
                  httpTimeout: soon
                """;
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigParser.parse(yaml, "s.yaml"));
        List<String> problems =
                e.problems().stream().map(ConfigProblem::toString).toList();
        assertEquals(
                List.of(
                        "s.yaml:4: extenders[0].weight: Invalid value: 0: must have a positive weight applied to it",
                        "s.yaml:8: extenders[0].managedResources[0].name: Invalid value: \"cpu\": is an invalid extended resource name",
                        "s.yaml:13: extenders[1].managedResources[0].name: Invalid value: \"example.com/gpu\": duplicate extender managed resource name",
                        "s.yaml:14: extenders[2].urlPrefix: Required value: the extender's base URL, such as http://127.0.0.1:8888/scheduler",
                        "s.yaml:15: extenders[2].httpTimeout: Invalid value: \"soon\": must be a duration such as 15s, 1m30s or 500ms",
                        "s.yaml:4: extenders: Invalid value: \"found 2 extenders implementing bind\": only one extender can implement bind"),
                problems);
    }
}
