package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubectl apply --server-side} with the real kubectl of the machine: create, re-apply of a
 * changed manifest, a conflict with client-side apply's manager and {@code --force-conflicts},
 * the managed fields {@code --show-managed-fields} prints, and the kinds kubectl users apply.
 */
class KubectlServerSideApplyTest {

    @TempDir
    static Path dir;

    @RegisterExtension
    static final ApiServer API = new ApiServer().withNodes("node-s");

    static Kubectl cli;

    @BeforeAll
    static void kubeconfig() throws IOException {
        cli = new Kubectl(API.kubeconfig(dir));
    }

    static String deployment(String name, int replicas, String labels) {
        return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name + "\n  labels: {" + labels + "}\n"
                + "spec:\n  replicas: " + replicas + "\n  selector: {matchLabels: {app: " + name + "}}\n"
                + "  template:\n    metadata: {labels: {app: " + name + "}}\n"
                + "    spec:\n      containers: [{name: web, image: nginx}]\n";
    }

    static Kubectl.Run serverSide(String manifest, String... more) throws Exception {
        String[] args = new String[3 + more.length];
        args[0] = "apply";
        args[1] = "--server-side";
        args[2] = "-f=-";
        System.arraycopy(more, 0, args, 3, more.length);
        return cli.withInput(manifest, args);
    }

    static ManagedFieldsEntry entry(Deployment d, String manager, String operation) {
        for (ManagedFieldsEntry e : d.getMetadata().getManagedFields()) {
            if (e.getManager().equals(manager) && e.getOperation().equals(operation)) {
                return e;
            }
        }
        return null;
    }

    @Test
    void applyCreatesAndAChangedManifestIsAppliedWithWhatItDroppedRemoved() throws Exception {
        Kubectl.Run created =
                serverSide(deployment("ssa", 2, "tier: a, keep: x")).ok();
        assertTrue(created.out().contains("deployment.apps/ssa serverside-applied"), created.out());
        Deployment d = API.deployment("ssa");
        assertEquals(2, d.getSpec().getReplicas());
        assertEquals("a", d.getMetadata().getLabels().get("tier"));

        serverSide(deployment("ssa", 3, "keep: x, role: web")).ok();
        d = API.deployment("ssa");
        assertEquals(3, d.getSpec().getReplicas());
        assertFalse(
                d.getMetadata().getLabels().containsKey("tier"),
                d.getMetadata().getLabels().toString());
        assertEquals("web", d.getMetadata().getLabels().get("role"));
        assertEquals("x", d.getMetadata().getLabels().get("keep"));
        assertNotNull(
                entry(d, "kubectl", "Apply"), d.getMetadata().getManagedFields().toString());
    }

    @Test
    void getShowsTheManagedFieldsWhenAskedTo() throws Exception {
        serverSide(deployment("shown", 1, "tier: a")).ok();
        String yaml = cli.run("get", "deployment", "shown", "-o", "yaml", "--show-managed-fields")
                .ok()
                .out();
        assertTrue(yaml.contains("managedFields:"), yaml);
        assertTrue(yaml.contains("manager: kubectl"), yaml);
        assertTrue(yaml.contains("operation: Apply"), yaml);
        assertTrue(yaml.contains("fieldsType: FieldsV1"), yaml);
        assertTrue(yaml.contains("f:replicas: {}"), yaml);
        assertTrue(yaml.contains("k:{\"name\":\"web\"}:"), yaml);
        String plain = cli.run("get", "deployment", "shown", "-o", "yaml").ok().out();
        assertFalse(plain.contains("managedFields"), plain);
    }

    @Test
    void aConflictWithClientSideApplyIsReportedAndForceConflictsTakesTheField() throws Exception {
        cli.withInput(deployment("contested", 1, "tier: a"), "apply", "-f", "-").ok();
        Deployment csa = API.deployment("contested");
        assertNotNull(
                entry(csa, "kubectl-client-side-apply", "Update"),
                csa.getMetadata().getManagedFields().toString());

        Kubectl.Run refused = serverSide(deployment("contested", 5, "tier: a"));
        assertEquals(1, refused.exit(), refused.out());
        assertTrue(
                refused.out()
                        .contains("Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using"
                                + " apps/v1: .spec.replicas"),
                refused.out());
        assertEquals(1, API.deployment("contested").getSpec().getReplicas());

        serverSide(deployment("contested", 5, "tier: a"), "--force-conflicts").ok();
        Deployment d = API.deployment("contested");
        assertEquals(5, d.getSpec().getReplicas());
        ManagedFieldsEntry applied = entry(d, "kubectl", "Apply");
        assertNotNull(applied, d.getMetadata().getManagedFields().toString());
        assertTrue(
                applied.getFieldsV1().getAdditionalProperties().toString().contains("f:replicas"),
                applied.getFieldsV1().getAdditionalProperties().toString());
        ManagedFieldsEntry left = entry(d, "kubectl-client-side-apply", "Update");
        assertTrue(
                left == null
                        || !left.getFieldsV1()
                                .getAdditionalProperties()
                                .toString()
                                .contains("f:replicas"),
                d.getMetadata().getManagedFields().toString());
    }

    @Test
    void theKindsKubectlUsersApplyAreAppliedServerSide() throws Exception {
        String manifest = String.join(
                "\n---\n",
                "apiVersion: v1\nkind: Namespace\nmetadata: {name: applied-ns, labels: {team: a}}",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: applied-ns}\ndata: {a: \"1\"}",
                "apiVersion: v1\nkind: Pod\nmetadata: {name: applied-pod, namespace: applied-ns}\n"
                        + "spec:\n  containers: [{name: c, image: pause}]",
                "apiVersion: v1\nkind: Node\nmetadata: {name: node-s, labels: {pool: blue}}",
                "apiVersion: slo.koordinator.sh/v1alpha1\nkind: NodeMetric\nmetadata: {name: node-s}\n"
                        + "spec: {metricCollectPolicy: {reportIntervalSeconds: 30}}");
        Kubectl.Run r = serverSide(manifest).ok();
        assertTrue(r.out().contains("namespace/applied-ns serverside-applied"), r.out());
        assertTrue(r.out().contains("node/node-s serverside-applied"), r.out());
        assertEquals(
                "a",
                API.client()
                        .namespaces()
                        .withName("applied-ns")
                        .get()
                        .getMetadata()
                        .getLabels()
                        .get("team"));
        assertEquals(
                "1",
                API.client()
                        .configMaps()
                        .inNamespace("applied-ns")
                        .withName("settings")
                        .get()
                        .getData()
                        .get("a"));
        assertNotNull(API.client()
                .pods()
                .inNamespace("applied-ns")
                .withName("applied-pod")
                .get());
        var node = API.client().nodes().withName("node-s").get();
        assertEquals("blue", node.getMetadata().getLabels().get("pool"));
        assertEquals("node-s", node.getMetadata().getLabels().get("kubernetes.io/hostname"), "what was there stays");
        assertTrue(
                node.getMetadata().getManagedFields().stream()
                        .anyMatch(e -> e.getManager().equals(FieldManager.BEFORE_FIRST_APPLY)),
                node.getMetadata().getManagedFields().toString());
        String metric = cli.run("get", "nodemetrics", "node-s", "-o", "jsonpath={.spec.metricCollectPolicy}")
                .ok()
                .out();
        assertTrue(metric.contains("30"), metric);

        // a second apply of the same manifest changes nothing
        String version = API.client()
                .configMaps()
                .inNamespace("applied-ns")
                .withName("settings")
                .get()
                .getMetadata()
                .getResourceVersion();
        serverSide(manifest).ok();
        assertEquals(
                version,
                API.client()
                        .configMaps()
                        .inNamespace("applied-ns")
                        .withName("settings")
                        .get()
                        .getMetadata()
                        .getResourceVersion());
    }

    @Test
    void aServerDryRunStoresNothing() throws Exception {
        Kubectl.Run created =
                serverSide(deployment("dry", 2, "tier: a"), "--dry-run=server").ok();
        assertTrue(created.out().contains("deployment.apps/dry serverside-applied (server dry run)"), created.out());
        assertNull(API.deployment("dry"));
        serverSide(deployment("dry", 2, "tier: a")).ok();
        serverSide(deployment("dry", 7, "tier: a"), "--dry-run=server").ok();
        assertEquals(2, API.deployment("dry").getSpec().getReplicas());
        cli.run("label", "deployment", "dry", "tier=b", "--overwrite", "--dry-run=server")
                .ok();
        assertEquals("a", API.deployment("dry").getMetadata().getLabels().get("tier"));
    }

    @Test
    void createAndLabelRecordTheirManagersAsUpdates() throws Exception {
        cli.run("create", "configmap", "made", "--from-literal=a=1").ok();
        cli.run("label", "configmap", "made", "tier=x").ok();
        List<ManagedFieldsEntry> entries = API.client()
                .configMaps()
                .inNamespace("default")
                .withName("made")
                .get()
                .getMetadata()
                .getManagedFields();
        assertEquals(
                List.of("kubectl-create", "kubectl-label"),
                entries.stream().map(ManagedFieldsEntry::getManager).toList(),
                entries.toString());
        assertEquals("Update", entries.get(0).getOperation());
        assertTrue(
                entries.get(1)
                        .getFieldsV1()
                        .getAdditionalProperties()
                        .toString()
                        .contains("f:tier"),
                entries.toString());
        assertNull(entries.get(0).getSubresource());
    }
}
