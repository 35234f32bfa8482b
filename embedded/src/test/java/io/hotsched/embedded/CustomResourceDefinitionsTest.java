package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * CustomResourceDefinitions applied with the real kubectl become served kinds: Koordinator's and
 * scheduler-plugins' own definitions (Reservation, Device, PodGroup, ElasticQuota) and one of the
 * tests' with every subresource (Gang), checked through kubectl and over HTTP.
 */
class CustomResourceDefinitionsTest {

    @TempDir
    static Path dir;

    @RegisterExtension
    static final ApiServer API = new ApiServer();

    static Kubectl cli;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @BeforeAll
    static void definitions() throws Exception {
        cli = new Kubectl(API.kubeconfig(dir));
        for (String crd : List.of(
                "scheduling.koordinator.sh_reservations",
                "scheduling.koordinator.sh_devices",
                "scheduling.x-k8s.io_podgroups",
                "test.hotsched.io_gangs")) {
            Kubectl.Run r = cli.run("apply", "-f", crd(crd)).ok();
            assertTrue(r.out().contains("customresourcedefinition.apiextensions.k8s.io/"), r.out());
        }
    }

    static String crd(String name) throws Exception {
        return Path.of(CustomResourceDefinitionsTest.class
                        .getResource("/crds/" + name + ".yaml")
                        .toURI())
                .toString();
    }

    private static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = Http.send(API.server().url(), "GET", path, null, null, "application/json");
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return JSON.readTree(r.body());
    }

    private static int status(String path) throws Exception {
        return Http.send(API.server().url(), "GET", path, null, null, "application/json")
                .statusCode();
    }

    /** The cell of {@code column} in the {@code row}-th row of a kubectl table (blank cells are ""). */
    private static String cell(String out, int row, String column) {
        List<String> lines = out.lines().toList();
        String header = lines.get(0);
        int start = header.indexOf(column);
        int end = header.indexOf(' ', start);
        while (end >= 0 && end < header.length() && header.charAt(end) == ' ') {
            end++;
        }
        String line = lines.get(row);
        return line.substring(
                        Math.min(start, line.length()),
                        end < 0 || end >= header.length() ? line.length() : Math.min(end, line.length()))
                .trim();
    }

    /** {@code kubectl patch KIND NAME --subresource=status --type=merge -p PATCH}. */
    private static void patchStatus(String kind, String name, String patch) throws Exception {
        cli.run("patch", kind, name, "--subresource=status", "--type=merge", "-p", patch)
                .ok();
    }

    /** {@code kubectl create} of a Gang "bad" with {@code spec}, which is to fail. */
    private static Kubectl.Run refusedGang(String spec) throws Exception {
        Kubectl.Run r = cli.withInput(
                "apiVersion: test.hotsched.io/v1\nkind: Gang\nmetadata: {name: bad}\nspec: " + spec + "\n",
                "create",
                "-f",
                "-");
        assertEquals(1, r.exit(), r.out());
        return r;
    }

    /** Asserts kubectl failed and said {@code message}. */
    private static void refused(Kubectl.Run r, String message) {
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains(message), r.out());
    }

    /** The words of each line of a kubectl table. */
    private static List<List<String>> table(String out) {
        return out.strip().lines().map(l -> List.of(l.trim().split("\\s+"))).toList();
    }

    @Test
    void appliedDefinitionsAreEstablishedAndInDiscovery() throws Exception {
        cli.run("wait", "--for", "condition=established", "crd/podgroups.scheduling.x-k8s.io", "--timeout=20s")
                .ok();
        String resources = cli.run("api-resources").ok().out();
        for (String line : List.of(
                "podgroups pg,pgs scheduling.x-k8s.io/v1alpha1 true PodGroup",
                "reservations scheduling.koordinator.sh/v1alpha1 false Reservation",
                "gangs gg test.hotsched.io/v1 true Gang",
                "customresourcedefinitions crd,crds apiextensions.k8s.io/v1 false CustomResourceDefinition")) {
            assertTrue(table(resources).contains(List.of(line.split(" "))), line + " in\n" + resources);
        }
        JsonNode crd = get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/podgroups.scheduling.x-k8s.io");
        assertEquals(
                "NamesAccepted",
                crd.path("status").path("conditions").get(0).path("type").asText());
        assertEquals(
                "podgroup",
                crd.path("status").path("acceptedNames").path("singular").asText());
        assertEquals(
                "v1alpha1", crd.path("status").path("storedVersions").get(0).asText());
        JsonNode list = get("/apis/test.hotsched.io/v1");
        assertEquals("gangs", list.path("resources").get(0).path("name").asText(), list.toString());
        assertEquals("gang", list.path("resources").get(0).path("singularName").asText());
        assertEquals(
                "hotsched",
                list.path("resources").get(0).path("categories").get(0).asText());
        assertEquals("gangs/status", list.path("resources").get(1).path("name").asText());
        assertEquals("autoscaling", list.path("resources").get(2).path("group").asText());
    }

    @Test
    void aDefinitionKubeApiserverRefusesIsRefusedInItsWords() throws Exception {
        String bad = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
                + "metadata: {name: widgets}\nspec:\n  group: test.hotsched.io\n  scope: Regional\n"
                + "  names: {kind: Widget, plural: widgets}\n"
                + "  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]\n";
        Kubectl.Run r = cli.withInput(bad, "apply", "-f", "-");
        assertEquals(1, r.exit(), r.out());
        assertTrue(
                r.out()
                        .contains(
                                "The CustomResourceDefinition \"widgets\" is invalid: \n"
                                        + "* metadata.name: Invalid value: \"widgets\": must be spec.names.plural+\".\"+spec.group\n"
                                        + "* spec.scope: Unsupported value: \"Regional\": supported values: \"Cluster\", \"Namespaced\""),
                r.out());
        assertEquals(404, status("/apis/test.hotsched.io/v1/namespaces/default/widgets"));
    }

    @Test
    void aCustomResourceIsPrintedWithItsColumnsAndItsStatusWrittenThroughTheSubresource() throws Exception {
        cli.withInput(
                        "apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: PodGroup\nmetadata: {name: pg1}\n"
                                + "spec: {minMember: 3}\nstatus: {phase: Ignored}\n",
                        "apply",
                        "-f",
                        "-")
                .ok();
        // the main endpoint ignores status, as with a status subresource on kube-apiserver
        assertTrue(get("/apis/scheduling.x-k8s.io/v1alpha1/namespaces/default/podgroups/pg1")
                .path("status")
                .isMissingNode());
        patchStatus("pg", "pg1", "{\"status\":{\"phase\":\"Running\",\"running\":3}}");
        // and the status subresource ignores the rest
        patchStatus("pg", "pg1", "{\"spec\":{\"minMember\":9},\"status\":{\"succeeded\":1}}");
        cli.run("patch", "pg", "pg1", "--type=merge", "-p", "{\"status\":{\"phase\":\"Failed\"}}")
                .ok();
        List<List<String>> rows = table(cli.run("get", "podgroups").ok().out());
        assertEquals(List.of("NAME", "PHASE", "MINMEMBER", "RUNNING", "SUCCEEDED", "FAILED", "AGE"), rows.get(0));
        assertEquals(List.of("pg1", "Running", "3", "3", "1"), rows.get(1).subList(0, 5), rows.toString());
    }

    @Test
    void columnsOfEveryTypeAndWideOnes() throws Exception {
        cli.withInput(
                        "apiVersion: test.hotsched.io/v1\nkind: Gang\nmetadata: {name: g1}\n"
                                + "spec: {members: 2, queue: batch}\n",
                        "apply",
                        "-f",
                        "-")
                .ok();
        patchStatus(
                "gang",
                "g1",
                "{\"status\":{\"ready\":true,\"conditions\":[{\"type\":\"Other\",\"reason\":\"x\"},"
                        + "{\"type\":\"Placed\",\"reason\":\"zone-a\"}]}}");
        List<List<String>> rows = table(cli.run("get", "gg", "g1").ok().out());
        assertEquals(List.of("NAME", "MEMBERS", "READY", "ZONE", "AGE"), rows.get(0));
        assertEquals(List.of("g1", "2", "true", "zone-a"), rows.get(1).subList(0, 4));
        List<List<String>> wide =
                table(cli.run("get", "gg", "g1", "-o", "wide").ok().out());
        assertEquals(List.of("NAME", "MEMBERS", "READY", "QUEUE", "ZONE", "AGE"), wide.get(0));
        assertEquals("batch", wide.get(1).get(3));
    }

    @Test
    void getWatchPrintsTheColumnsOfChangedObjects() throws Exception {
        cli.withInput(
                        "apiVersion: test.hotsched.io/v1\nkind: Gang\nmetadata: {name: watched}\n"
                                + "spec: {members: 1, queue: batch}\n",
                        "apply",
                        "-f",
                        "-")
                .ok();
        try (Kubectl.Running k = cli.started("get", "gangs", "watched", "-w")) {
            k.line(l -> l.startsWith("NAME") && l.contains("MEMBERS"));
            k.line(l -> l.startsWith("watched "));
            cli.run("patch", "gang", "watched", "--type=merge", "-p", "{\"spec\":{\"members\":7}}")
                    .ok();
            String changed = k.line(l -> l.startsWith("watched ") && l.contains(" 7 "));
            assertEquals("7", table(changed).get(0).get(1), changed);
        }
    }

    @Test
    void kubectlScaleWritesTheReplicasPathAndTheScaleReadsTheDefinitionsPaths() throws Exception {
        cli.withInput(
                        "apiVersion: test.hotsched.io/v1\nkind: Gang\nmetadata: {name: scaled}\n"
                                + "spec: {members: 2, queue: online}\n",
                        "apply",
                        "-f",
                        "-")
                .ok();
        String objectPath = "/apis/test.hotsched.io/v1/namespaces/default/gangs/scaled";
        Http.send(
                API.server().url(),
                "PATCH",
                objectPath + "/status",
                "application/merge-patch+json",
                "{\"status\":{\"running\":2,\"selector\":\"gang=scaled\"}}".getBytes(),
                null);
        Kubectl.Run r = cli.run("scale", "gang", "scaled", "--replicas=5").ok();
        assertTrue(r.out().contains("gang.test.hotsched.io/scaled scaled"), r.out());
        assertEquals(5, get(objectPath).path("spec").path("members").asInt());
        JsonNode scale = get(objectPath + "/scale");
        assertEquals("Scale", scale.path("kind").asText());
        assertEquals(5, scale.path("spec").path("replicas").asInt());
        assertEquals(2, scale.path("status").path("replicas").asInt());
        assertEquals("gang=scaled", scale.path("status").path("selector").asText());
        // PodGroup has no scale subresource
        assertEquals(404, status("/apis/scheduling.x-k8s.io/v1alpha1/namespaces/default/podgroups/pg1/scale"));
    }

    @Test
    void theSchemaPrunesDefaultsAndValidatesAsKubeApiserverDoes() throws Exception {
        Kubectl.Run invalid = cli.withInput(
                "apiVersion: test.hotsched.io/v1\nkind: Gang\nmetadata: {name: bad}\n"
                        + "spec: {members: -1, queue: later, timeout: soon}\n",
                "apply",
                "-f",
                "-");
        assertEquals(1, invalid.exit(), invalid.out());
        assertTrue(
                invalid.out()
                        .contains(
                                "The Gang \"bad\" is invalid: \n"
                                        + "* spec.members: Invalid value: -1: spec.members in body should be greater than or equal to 0\n"
                                        + "* spec.queue: Unsupported value: \"later\": supported values: \"batch\", \"online\"\n"
                                        + "* spec.timeout: Invalid value: \"soon\": spec.timeout in body should match '^[0-9]+s$'"),
                invalid.out());
        Kubectl.Run missing = refusedGang("{members: \"2\"}");
        assertTrue(missing.out().contains("spec.queue: Required value"), missing.out());
        assertTrue(
                missing.out()
                        .contains(
                                "spec.members: Invalid value: \"string\": spec.members in body must be of type integer:"
                                        + " \"string\""),
                missing.out());
        Kubectl.Run unknown = refusedGang("{queue: batch, size: 2}");
        assertTrue(unknown.out().contains("strict decoding error: unknown field \"spec.size\""), unknown.out());
        assertEquals(404, status("/apis/test.hotsched.io/v1/namespaces/default/gangs/bad"));

        // without fieldValidation (a client-go or fabric8 client) an unknown field is dropped, a default filled in
        HttpResponse<String> created = Http.send(
                API.server().url(),
                "POST",
                "/apis/test.hotsched.io/v1/namespaces/default/gangs",
                "application/json",
                ("{\"apiVersion\":\"test.hotsched.io/v1\",\"kind\":\"Gang\",\"metadata\":{\"name\":\"pruned\"},"
                                + "\"spec\":{\"queue\":\"batch\",\"size\":2}}")
                        .getBytes(),
                null);
        assertEquals(201, created.statusCode(), created.body());
        JsonNode spec =
                get("/apis/test.hotsched.io/v1/namespaces/default/gangs/pruned").path("spec");
        assertFalse(spec.has("size"), spec.toString());
        assertEquals(1, spec.path("members").asInt(), spec.toString());
    }

    @Test
    void aServerSideApplyIsValidatedByTheSchemaToo() throws Exception {
        String gang = "apiVersion: test.hotsched.io/v1\nkind: Gang\nmetadata: {name: applied}\nspec: {queue: QUEUE}\n";
        refused(
                cli.withInput(gang.replace("QUEUE", "later"), "apply", "--server-side", "-f", "-"),
                "The Gang \"applied\" is invalid: spec.queue: Unsupported value: \"later\": supported values:"
                        + " \"batch\", \"online\"");
        cli.withInput(gang.replace("QUEUE", "online"), "apply", "--server-side", "-f", "-")
                .ok();
        // the schema's default, as for any other write
        assertEquals(
                1,
                get("/apis/test.hotsched.io/v1/namespaces/default/gangs/applied")
                        .path("spec")
                        .path("members")
                        .asInt());
    }

    @Test
    void aClusterScopedKindIsServedWithoutNamespaceOnly() throws Exception {
        cli.withInput(
                        "apiVersion: scheduling.koordinator.sh/v1alpha1\nkind: Reservation\nmetadata: {name: r1}\n"
                                + "spec:\n  template: {spec: {containers: [{name: c, image: pause}]}}\n"
                                + "  owners: [{object: {name: owner}}]\n  ttl: 1h\n",
                        "apply",
                        "-f",
                        "-")
                .ok();
        String out = cli.run("get", "reservations").ok().out();
        assertEquals(
                List.of("NAME", "PHASE", "AGE", "NODE", "TTL", "EXPIRES"),
                table(out).get(0));
        assertEquals("r1", cell(out, 1, "NAME"), out);
        assertEquals("", cell(out, 1, "PHASE"), out);
        assertEquals("1h", cell(out, 1, "TTL"), out);
        JsonNode r1 = get("/apis/scheduling.koordinator.sh/v1alpha1/reservations/r1");
        // the schema's default
        assertTrue(r1.path("spec").path("allocateOnce").asBoolean(), r1.toString());
        assertEquals(404, status("/apis/scheduling.koordinator.sh/v1alpha1/namespaces/default/reservations/r1"));
    }

    @Test
    void explainReadsTheDefinitionsSchema() throws Exception {
        String out = cli.run("explain", "podgroup.spec").ok().out();
        assertTrue(out.contains("GROUP:      scheduling.x-k8s.io"), out);
        assertTrue(out.contains("Specification of the desired behavior of the pod group."), out);
        assertTrue(out.contains("minMember\t<integer>"), out);
        String gang = cli.run("explain", "gangs.spec.members").ok().out();
        assertTrue(gang.contains("How many pods the gang has."), gang);
    }

    @Test
    void aDefinitionForABuiltInKindTakesItsPlace() throws Exception {
        // Device is served as a built-in kind; Koordinator's definition gives it its schema
        cli.run("explain", "device.spec.devices.resources").ok();
        JsonNode v3 = get("/openapi/v3/apis/scheduling.koordinator.sh/v1alpha1");
        assertTrue(
                v3.path("components").path("schemas").has("sh.koordinator.scheduling.v1alpha1.Device"),
                v3.path("components").path("schemas").toString());
    }

    @Test
    void deletingADefinitionStopsServingItsKindAndRemovesItsObjects() throws Exception {
        cli.run("apply", "-f", crd("scheduling.x-k8s.io_elasticquotas")).ok();
        cli.withInput(
                        "apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: ElasticQuota\nmetadata: {name: q}\n"
                                + "spec: {max: {cpu: 10, memory: 20Gi}}\n",
                        "apply",
                        "-f",
                        "-")
                .ok();
        List<List<String>> rows = table(cli.run("get", "eq").ok().out());
        assertEquals(
                List.of("q", "{\"cpu\":10,\"memory\":\"20Gi\"}"), rows.get(1).subList(0, 2), rows.toString());
        assertTrue(get("/openapi/v3").path("paths").has("apis/scheduling.x-k8s.io/v1alpha1"));

        cli.run("delete", "crd", "elasticquotas.scheduling.x-k8s.io").ok();
        assertFalse(cli.run("api-resources").ok().out().contains("ElasticQuota"));
        assertEquals(404, status("/apis/scheduling.x-k8s.io/v1alpha1/namespaces/default/elasticquotas"));
        // PodGroup, of the same group, is still served
        assertEquals(200, status("/apis/scheduling.x-k8s.io/v1alpha1/namespaces/default/podgroups"));

        cli.run("apply", "-f", crd("scheduling.x-k8s.io_elasticquotas")).ok();
        assertEquals(
                0,
                get("/apis/scheduling.x-k8s.io/v1alpha1/namespaces/default/elasticquotas")
                        .path("items")
                        .size(),
                "the objects went with their definition");
    }
}
