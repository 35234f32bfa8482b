package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.hotsched.embedded.standins.StandIn;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped manifests ({@code distribution/src/main/kubernetes/}) applied with the real kubectl,
 * as a user installs hotsched in a cluster, and the pod they make held to the restricted Pod
 * Security profile's rules.
 */
class KubectlManifestsTest {

    private static final Path MANIFESTS = Path.of("../distribution/src/main/kubernetes");

    @TempDir
    static Path dir;

    @RegisterExtension
    static final ApiServer API = new ApiServer().withStandIns(EnumSet.of(StandIn.DEPLOYMENT, StandIn.REPLICASET));

    static Kubectl cli;

    @BeforeAll
    static void kubeconfig() throws Exception {
        cli = new Kubectl(API.kubeconfig(dir));
        cli.run("create", "namespace", "kube-system");
    }

    @Test
    void theManifestsApplyCleanlyAndAgain() throws Exception {
        Kubectl.Run first = cli.run("apply", "-f", MANIFESTS.toString()).ok();
        for (String made : List.of(
                "serviceaccount/hotsched created",
                "clusterrole.rbac.authorization.k8s.io/hotsched created",
                "clusterrolebinding.rbac.authorization.k8s.io/hotsched created",
                "clusterrole.rbac.authorization.k8s.io/hotsched-metrics-reader created",
                "namespace/hotsched-plugins created",
                "role.rbac.authorization.k8s.io/hotsched-plugin-sources created",
                "rolebinding.rbac.authorization.k8s.io/hotsched-plugin-sources created",
                "clusterrole.rbac.authorization.k8s.io/hotsched-plugin-publisher created",
                "configmap/hotsched-plugin-delivery created",
                "configmap/hotsched-config created",
                "deployment.apps/hotsched created",
                "poddisruptionbudget.policy/hotsched created")) {
            assertTrue(first.out().contains(made), first.out());
        }
        Kubectl.Run again = cli.run("apply", "-f", MANIFESTS.toString()).ok();
        // the PodDisruptionBudget comes out "configured" on this server (kube-apiserver says
        // unchanged): a divergence of the embedded server's apply, not of the manifest
        for (String kept : List.of(
                "serviceaccount/hotsched unchanged",
                "clusterrole.rbac.authorization.k8s.io/hotsched unchanged",
                "configmap/hotsched-config unchanged",
                "deployment.apps/hotsched unchanged")) {
            assertTrue(again.out().contains(kept), again.out());
        }

        Deployment d = API.client()
                .apps()
                .deployments()
                .inNamespace("kube-system")
                .withName("hotsched")
                .get();
        assertEquals(2, d.getSpec().getReplicas());
        Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertTrue(c.getArgs().contains("--leader-elect"), c.getArgs().toString());
        assertEquals("/healthz", c.getLivenessProbe().getHttpGet().getPath());
        assertEquals("/readyz", c.getReadinessProbe().getHttpGet().getPath());
        assertNotNull(c.getResources().getRequests().get("cpu"));
        assertRestricted(d.getSpec().getTemplate().getSpec());
        // a read-only root file system: every folder hotsched writes is a volume
        List<String> mounted =
                c.getVolumeMounts().stream().map(m -> m.getMountPath()).toList();
        assertTrue(
                mounted.containsAll(List.of("/opt/hotsched/data", "/opt/hotsched/delivered", "/tmp")),
                mounted.toString());
        // the Deployment stand-in made the replicas' pods from it
        API.client()
                .pods()
                .inNamespace("kube-system")
                .withLabel("app.kubernetes.io/name", "hotsched")
                .informOnCondition(pods -> pods.size() == 2)
                .get(30, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** The restricted profile's checks that a pod spec can fail (Kubernetes' Pod Security Standards). */
    private static void assertRestricted(PodSpec spec) {
        assertTrue(spec.getHostNetwork() == null || !spec.getHostNetwork(), "hostNetwork");
        assertTrue(spec.getHostPID() == null || !spec.getHostPID(), "hostPID");
        assertTrue(spec.getHostIPC() == null || !spec.getHostIPC(), "hostIPC");
        assertTrue(spec.getVolumes().stream().allMatch(v -> v.getHostPath() == null), "hostPath volumes");
        assertEquals(Boolean.TRUE, spec.getSecurityContext().getRunAsNonRoot());
        assertTrue(spec.getSecurityContext().getRunAsUser() != 0);
        assertEquals(
                "RuntimeDefault", spec.getSecurityContext().getSeccompProfile().getType());
        for (Container c : spec.getContainers()) {
            assertEquals(Boolean.FALSE, c.getSecurityContext().getAllowPrivilegeEscalation(), c.getName());
            assertEquals(
                    List.of("ALL"), c.getSecurityContext().getCapabilities().getDrop(), c.getName());
            assertTrue(c.getSecurityContext().getCapabilities().getAdd() == null
                    || c.getSecurityContext().getCapabilities().getAdd().isEmpty());
            assertTrue(c.getSecurityContext().getPrivileged() == null
                    || !c.getSecurityContext().getPrivileged());
            assertTrue(c.getPorts().stream().allMatch(p -> p.getHostPort() == null || p.getHostPort() == 0));
        }
    }
}
