package io.hotsched.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile {@code scheduler.yaml} files, each a distinct way to be wrong, with the exact message a
 * user sees (the refusal's text; the running configuration stays, as the reload tests show).
 */
class HostileConfigTest {

    static final String HEAD = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";
    private static final List<String> ROWS = new ArrayList<>();

    static Stream<Arguments> files() {
        return Stream.of(
                Arguments.of(
                        "an empty file",
                        "",
                        "etc/scheduler.yaml: the file is empty; it needs at least apiVersion: kubescheduler.config.k8s.io/v1 and kind: KubeSchedulerConfiguration"),
                Arguments.of(
                        "not YAML",
                        HEAD + "profiles: [\n  - schedulerName: x\n",
                        "etc/scheduler.yaml:4: not valid YAML: expected the node content, but found '-'"),
                Arguments.of(
                        "tabs for indentation",
                        HEAD + "profiles:\n\t- schedulerName: x\n",
                        "etc/scheduler.yaml:4: not valid YAML: found character '\\t(TAB)' that cannot start any token. (Do not use \\t(TAB) for indentation)"),
                Arguments.of(
                        "a YAML bomb",
                        "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
                                + "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
                                + "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n",
                        "etc/scheduler.yaml: not valid YAML: Number of aliases for non-scalar nodes exceeds the specified max=50"),
                Arguments.of(
                        "a list at the top",
                        "- apiVersion: v1\n",
                        "etc/scheduler.yaml:1: must be a mapping (key: value)\netc/scheduler.yaml:1: apiVersion: Required value: must be \"kubescheduler.config.k8s.io/v1\"\netc/scheduler.yaml:1: kind: Required value: must be \"KubeSchedulerConfiguration\""),
                Arguments.of(
                        "no apiVersion",
                        "kind: KubeSchedulerConfiguration\n",
                        "etc/scheduler.yaml:1: apiVersion: Required value: must be \"kubescheduler.config.k8s.io/v1\""),
                Arguments.of(
                        "an old apiVersion",
                        HEAD.replace("/v1", "/v1beta3"),
                        "etc/scheduler.yaml:1: apiVersion: Unsupported value: \"kubescheduler.config.k8s.io/v1beta3\": supported values: \"kubescheduler.config.k8s.io/v1\""),
                Arguments.of(
                        "another kind",
                        HEAD.replace("KubeSchedulerConfiguration", "KubeProxyConfiguration"),
                        "etc/scheduler.yaml:2: kind: Unsupported value: \"KubeProxyConfiguration\": supported values: \"KubeSchedulerConfiguration\""),
                Arguments.of(
                        "an unknown top-level field",
                        HEAD + "profile:\n- schedulerName: x\n",
                        "etc/scheduler.yaml:3: profile: unknown field \"profile\"; known fields: apiVersion, clientConnection, delayCacheUntilActive, enableContentionProfiling, enableProfiling, extenders, healthzBindAddress, kind, leaderElection, metricsBindAddress, parallelism, percentageOfNodesToScore, podInitialBackoffSeconds, podMaxBackoffSeconds, profiles"),
                Arguments.of(
                        "a key twice",
                        HEAD + "parallelism: 4\nparallelism: 8\n",
                        "etc/scheduler.yaml:4: parallelism: field given twice"),
                Arguments.of(
                        "two documents",
                        HEAD + "---\n" + HEAD,
                        "etc/scheduler.yaml:3: not valid YAML: but found another document"),
                Arguments.of(
                        "parallelism 0",
                        HEAD + "parallelism: 0\n",
                        "etc/scheduler.yaml:3: parallelism: Invalid value: 0: should be an integer value greater than zero"),
                Arguments.of(
                        "parallelism not a number",
                        HEAD + "parallelism: many\n",
                        "etc/scheduler.yaml:3: parallelism: Invalid value: \"many\": must be an integer"),
                Arguments.of(
                        "parallelism too large for an int",
                        HEAD + "parallelism: 99999999999\n",
                        "etc/scheduler.yaml:3: parallelism: Invalid value: 99999999999: must be a 32-bit integer (-2147483648 to 2147483647)"),
                Arguments.of(
                        "percentageOfNodesToScore over 100",
                        HEAD + "percentageOfNodesToScore: 101\n",
                        "etc/scheduler.yaml:3: percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"),
                Arguments.of(
                        "percentageOfNodesToScore negative",
                        HEAD + "percentageOfNodesToScore: -5\n",
                        "etc/scheduler.yaml:3: percentageOfNodesToScore: Invalid value: -5: not in valid range [0-100]"),
                Arguments.of(
                        "podInitialBackoffSeconds 0",
                        HEAD + "podInitialBackoffSeconds: 0\n",
                        "etc/scheduler.yaml:3: podInitialBackoffSeconds: Invalid value: 0: must be greater than 0"),
                Arguments.of(
                        "podMaxBackoffSeconds below the initial",
                        HEAD + "podInitialBackoffSeconds: 10\npodMaxBackoffSeconds: 5\n",
                        "etc/scheduler.yaml:4: podMaxBackoffSeconds: Invalid value: 5: must be greater than or equal to podInitialBackoffSeconds (10)"),
                Arguments.of(
                        "profiles a map",
                        HEAD + "profiles:\n  schedulerName: x\n",
                        "etc/scheduler.yaml:4: profiles: must be a list"),
                Arguments.of(
                        "two profiles of one name",
                        HEAD + "profiles:\n- schedulerName: a\n- schedulerName: a\n",
                        "etc/scheduler.yaml:5: profiles[1].schedulerName: Duplicate value: \"a\""),
                Arguments.of(
                        "an empty schedulerName",
                        HEAD + "profiles:\n- schedulerName: \"\"\n",
                        "etc/scheduler.yaml:4: profiles[0].schedulerName: Required value"),
                Arguments.of(
                        "an unknown profile field",
                        HEAD + "profiles:\n- schedulerName: a\n  plugin: {}\n",
                        "etc/scheduler.yaml:5: profiles[0].plugin: unknown field \"plugin\"; known fields: percentageOfNodesToScore, pluginConfig, plugins, schedulerName"),
                Arguments.of(
                        "an unknown extension point",
                        HEAD + "profiles:\n- schedulerName: a\n  plugins:\n    filters:\n      enabled: [{name: X}]\n",
                        "etc/scheduler.yaml:6: profiles[0].plugins.filters: unknown field \"filters\"; known fields: bind, filter, multiPoint, permit, postBind, postFilter, preBind, preEnqueue, preFilter, preScore, queueSort, reserve, score"),
                Arguments.of(
                        "enabled not a list",
                        HEAD + "profiles:\n- schedulerName: a\n  plugins:\n    filter:\n      enabled: {name: X}\n",
                        "etc/scheduler.yaml:7: profiles[0].plugins.filter.enabled: must be a list"),
                Arguments.of(
                        "a plugin without a name",
                        HEAD + "profiles:\n- schedulerName: a\n  plugins:\n    filter:\n      enabled: [{weight: 1}]\n",
                        "etc/scheduler.yaml:7: profiles[0].plugins.filter.enabled[0].name: Required value"),
                Arguments.of(
                        "a negative score weight",
                        HEAD
                                + "profiles:\n- schedulerName: a\n  plugins:\n    score:\n      enabled: [{name: X, weight: -1}]\n",
                        "etc/scheduler.yaml:7: profiles[0].plugins.score.enabled[0].weight: Invalid value: -1: must not be negative (0 means the default weight 1)"),
                Arguments.of(
                        "a weight that is not a number",
                        HEAD
                                + "profiles:\n- schedulerName: a\n  plugins:\n    score:\n      enabled: [{name: X, weight: heavy}]\n",
                        "etc/scheduler.yaml:7: profiles[0].plugins.score.enabled[0].weight: Invalid value: \"heavy\": must be an integer"),
                Arguments.of(
                        "a weight past an int",
                        HEAD
                                + "profiles:\n- schedulerName: a\n  plugins:\n    score:\n      enabled: [{name: X, weight: 99999999999}]\n",
                        "etc/scheduler.yaml:7: profiles[0].plugins.score.enabled[0].weight: Invalid value: 99999999999:"
                                + " must be a 32-bit integer (-2147483648 to 2147483647)"),
                Arguments.of(
                        "pluginConfig without a name",
                        HEAD + "profiles:\n- schedulerName: a\n  pluginConfig:\n  - args: {}\n",
                        "etc/scheduler.yaml:6: profiles[0].pluginConfig[0].name: Required value"),
                Arguments.of(
                        "pluginConfig args not a map",
                        HEAD + "profiles:\n- schedulerName: a\n  pluginConfig:\n  - name: X\n    args: [1]\n",
                        "etc/scheduler.yaml:7: profiles[0].pluginConfig[0].args: must be a mapping of the plugin's arguments"),
                Arguments.of(
                        "pluginConfig twice for one plugin",
                        HEAD
                                + "profiles:\n- schedulerName: a\n  pluginConfig:\n  - name: X\n    args: {}\n  - name: X\n    args: {}\n",
                        "etc/scheduler.yaml:8: profiles[0].pluginConfig[1]: Duplicate value: \"X\""),
                Arguments.of(
                        "an extender without urlPrefix",
                        HEAD + "extenders:\n- filterVerb: filter\n",
                        "etc/scheduler.yaml:4: extenders[0].urlPrefix: Required value: the extender's base URL, such as http://127.0.0.1:8888/scheduler"),
                Arguments.of(
                        "an extender urlPrefix that is no URL",
                        HEAD + "extenders:\n- urlPrefix: \"not a url\"\n  filterVerb: filter\n",
                        "etc/scheduler.yaml:4: extenders[0].urlPrefix: Invalid value: \"not a url\": must start with http:// or https://"),
                Arguments.of(
                        "two binding extenders",
                        HEAD
                                + "extenders:\n- urlPrefix: http://a\n  bindVerb: bind\n- urlPrefix: http://b\n  bindVerb: bind\n",
                        "etc/scheduler.yaml:4: extenders: Invalid value: \"found 2 extenders implementing bind\": only one extender can implement bind"),
                Arguments.of(
                        "a prioritizing extender of weight 0",
                        HEAD + "extenders:\n- urlPrefix: http://a\n  prioritizeVerb: p\n  weight: 0\n",
                        "etc/scheduler.yaml:6: extenders[0].weight: Invalid value: 0: must have a positive weight applied to it"),
                Arguments.of(
                        "an extender time-out that is no duration",
                        HEAD + "extenders:\n- urlPrefix: http://a\n  filterVerb: f\n  httpTimeout: 5 seconds\n",
                        "etc/scheduler.yaml:6: extenders[0].httpTimeout: Invalid value: \"5 seconds\": must be a duration such as 15s, 1m30s or 500ms"),
                Arguments.of(
                        "a negative client burst",
                        HEAD + "clientConnection:\n  burst: -1\n",
                        "etc/scheduler.yaml:4: clientConnection.burst: Invalid value: -1: must be non-negative"),
                Arguments.of(
                        "deep nesting",
                        HEAD + "x: " + "[".repeat(5000) + "]".repeat(5000) + "\n",
                        "etc/scheduler.yaml: not valid YAML: nested too deeply to be read"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void refusedNamingWhatIsWrong(String what, String yaml, String message) {
        String got;
        try {
            ConfigParser.parse(yaml, "etc/scheduler.yaml");
            got = "(accepted)";
        } catch (ConfigException e) {
            got = e.getMessage();
        } catch (RuntimeException | StackOverflowError e) {
            got = "(threw " + e + ")";
        }
        ROWS.add("| " + what + " | `" + got.replace("|", "\\|").replace("\n", " ") + "` |");
        assertEquals(message, got);
    }

    @Test
    void aFileOverOneMebibyteOrNotUtf8IsRefusedBeforeItIsParsed(@TempDir Path dir) throws IOException {
        Path big = dir.resolve("big.yaml");
        Files.writeString(big, HEAD + "# " + "x".repeat(1024 * 1024) + "\n");
        String why = assertThrows(ConfigException.class, () -> ConfigParser.load(big))
                .getMessage();
        assertEquals(
                big + ": is " + Files.size(big) + " bytes; a configuration may have at most 1048576 (1 MiB, what a"
                        + " ConfigMap holds)",
                why);
        Path latin1 = dir.resolve("latin1.yaml");
        Files.write(latin1, (HEAD + "# caf\u00e9\n").getBytes(StandardCharsets.ISO_8859_1));
        why = assertThrows(ConfigException.class, () -> ConfigParser.load(latin1))
                .getMessage();
        assertEquals(latin1 + ": is not UTF-8 text; a configuration is YAML, written in UTF-8", why);
    }

    @AfterAll
    static void table() {
        ROWS.forEach(r -> System.out.println("hostile config " + r));
    }
}
