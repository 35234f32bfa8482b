package io.hotsched.kube;

import static io.hotsched.kube.ApiServerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.plugins.defaults.balancedallocation.BalancedAllocationFactory;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinderFactory;
import io.hotsched.plugins.defaults.defaultpreemption.DefaultPreemptionFactory;
import io.hotsched.plugins.defaults.imagelocality.ImageLocalityFactory;
import io.hotsched.plugins.defaults.interpodaffinity.InterPodAffinityFactory;
import io.hotsched.plugins.defaults.nodeaffinity.NodeAffinityFactory;
import io.hotsched.plugins.defaults.nodename.NodeNameFactory;
import io.hotsched.plugins.defaults.nodeports.NodePortsFactory;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFitFactory;
import io.hotsched.plugins.defaults.nodeunschedulable.NodeUnschedulableFactory;
import io.hotsched.plugins.defaults.podtopologyspread.PodTopologySpreadFactory;
import io.hotsched.plugins.defaults.queuesort.PrioritySortFactory;
import io.hotsched.plugins.defaults.tainttoleration.TaintTolerationFactory;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 26's hostile objects from the API, over HTTP against the embedded API server with the
 * shipped default plugins: each row is an object a careless or hostile user writes. Either the API
 * server refuses it, in kube-apiserver's words, or the scheduler takes it and the pod is told why
 * it waits (its PodScheduled condition) or is bound; after every row a plain pod is still bound, so
 * no object stops scheduling. docs/reliability.md lists the rows with these messages.
 */
class HostileObjectsTest {

    /** What happened to a row's object: refused by the API, bound, or pending with a message. */
    record Row(String what, Supplier<List<HasMetadata>> objects, String outcome) {
        @Override
        public String toString() {
            return what;
        }
    }

    private static ApiServerFixture api;
    private static int plain;

    @BeforeAll
    static void start() throws Exception {
        api = new ApiServerFixture(
                Nodes.node("n1").cpu("8").memory("16Gi").label("zone", "a").build(),
                Nodes.node("n2").cpu("8").memory("16Gi").label("zone", "b").build());
        Map<String, PluginFactory> plugins = new LinkedHashMap<>();
        plugins.put("PrioritySort", new PrioritySortFactory());
        plugins.put("NodeUnschedulable", new NodeUnschedulableFactory());
        plugins.put("NodeName", new NodeNameFactory());
        plugins.put("TaintToleration", new TaintTolerationFactory());
        plugins.put("NodeAffinity", new NodeAffinityFactory());
        plugins.put("NodePorts", new NodePortsFactory());
        plugins.put("NodeResourcesFit", new NodeResourcesFitFactory());
        plugins.put("PodTopologySpread", new PodTopologySpreadFactory());
        plugins.put("InterPodAffinity", new InterPodAffinityFactory());
        plugins.put("NodeResourcesBalancedAllocation", new BalancedAllocationFactory());
        plugins.put("ImageLocality", new ImageLocalityFactory());
        plugins.put("DefaultPreemption", new DefaultPreemptionFactory());
        plugins.put("DefaultBinder", new DefaultBinderFactory());
        api.connect(plugins, ConnectedScheduler.config(plugins));
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    static Stream<Row> rows() {
        return Stream.of(
                pod(
                        "a pod request that is no quantity",
                        p -> p.cpu("12xyz"),
                        "refused: Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
                pod(
                        "a negative cpu request",
                        p -> p.cpu("-2"),
                        "refused: Pod \"hostile-2\" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: \"-2\": must be greater than or equal to 0"),
                pod(
                        "a request of 10^30 cpus",
                        p -> p.cpu("1e30"),
                        "pending: pod cannot be scheduled: it cannot be read: cpu: Invalid value: \"1e30\": a valid quantity, but too large for the scheduler, which counts cpu in millicores as a 64-bit integer (at most 9223372036854775807m)"),
                pod(
                        "memory requests summing past a long",
                        p -> p.memory("8Ei").request("ephemeral-storage", "8Ei"),
                        "pending: pod cannot be scheduled: it cannot be read: memory: Invalid value: \"8Ei\": a valid quantity, but too large for the scheduler, which counts memory in bytes as a 64-bit integer (at most 9223372036854775807)"),
                pod(
                        "a request of an unknown extended resource",
                        p -> p.request("example.com/fpga", "1"),
                        "pending: 0/2 nodes are available: 2 Insufficient example.com/fpga. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."),
                pod(
                        "a hostPort past 65535",
                        p -> p.hostPort(70000),
                        "refused: Pod \"hostile-6\" is invalid: spec.containers[0].ports[0].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive"),
                spec(
                        "node affinity with an unknown operator",
                        b -> requiredZone(b, "Among", "a"),
                        "refused: Pod \"hostile-7\" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: \"Among\": not a valid selector operator"),
                spec(
                        "node affinity In without values",
                        b -> requiredZone(b, "In"),
                        "refused: Pod \"hostile-8\" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"),
                spec(
                        "node affinity Gt with a value that is no integer",
                        b -> requiredZone(b, "Gt", "many"),
                        "pending: 0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."),
                spec(
                        "pod affinity whose selector has an invalid label value",
                        b -> b.editSpec()
                                .withNewAffinity()
                                .withNewPodAffinity()
                                .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                                .withTopologyKey("zone")
                                .withNewLabelSelector()
                                .addToMatchLabels("app", "not a value!")
                                .endLabelSelector()
                                .endRequiredDuringSchedulingIgnoredDuringExecution()
                                .endPodAffinity()
                                .endAffinity()
                                .endSpec(),
                        "refused: Pod \"hostile-10\" is invalid: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchLabels: Invalid value: \"not a value!\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"),
                spec(
                        "pod anti-affinity without a topologyKey",
                        b -> b.editSpec()
                                .withNewAffinity()
                                .withNewPodAntiAffinity()
                                .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                                .withNewLabelSelector()
                                .addToMatchLabels("app", "x")
                                .endLabelSelector()
                                .endRequiredDuringSchedulingIgnoredDuringExecution()
                                .endPodAntiAffinity()
                                .endAffinity()
                                .endSpec(),
                        "refused: Pod \"hostile-11\" is invalid: spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty"),
                spec(
                        "a topology spread constraint of maxSkew 0",
                        b -> b.editSpec()
                                .addNewTopologySpreadConstraint()
                                .withMaxSkew(0)
                                .withTopologyKey("zone")
                                .withWhenUnsatisfiable("DoNotSchedule")
                                .endTopologySpreadConstraint()
                                .endSpec(),
                        "refused: Pod \"hostile-12\" is invalid: spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero"),
                spec(
                        "a topology spread constraint with an unknown whenUnsatisfiable",
                        b -> b.editSpec()
                                .addNewTopologySpreadConstraint()
                                .withMaxSkew(1)
                                .withTopologyKey("zone")
                                .withWhenUnsatisfiable("Sometimes")
                                .endTopologySpreadConstraint()
                                .endSpec(),
                        "refused: Pod \"hostile-13\" is invalid: spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: \"Sometimes\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\""),
                spec(
                        "a toleration with operator Exists and a value",
                        b -> b.editSpec()
                                .addNewToleration()
                                .withKey("k")
                                .withOperator("Exists")
                                .withValue("v")
                                .endToleration()
                                .endSpec(),
                        "refused: Pod \"hostile-14\" is invalid: spec.tolerations[0].operator: Invalid value: \"Exists\": value must be empty when `operator` is 'Exists'"),
                spec(
                        "10 000 tolerations",
                        b -> b.editSpec().withTolerations(tolerations(10_000)).endSpec(),
                        "bound"),
                spec(
                        "annotations of 300 KiB",
                        b -> b.editMetadata()
                                .addToAnnotations("big", "x".repeat(300 * 1024))
                                .endMetadata(),
                        "refused: Pod \"hostile-16\" is invalid: metadata.annotations: Too long: must have at most 262144 bytes"),
                spec(
                        "a nodeSelector value that is no label value",
                        b -> b.editSpec().addToNodeSelector("zone", "a b").endSpec(),
                        "refused: Pod \"hostile-17\" is invalid: spec.nodeSelector: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"),
                spec(
                        "a priorityClassName no PriorityClass has",
                        b -> b.editSpec()
                                .withPriorityClassName("urgent-nonexistent")
                                .endSpec(),
                        "refused: pods \"hostile-18\" is forbidden: no PriorityClass with name urgent-nonexistent was found"),
                node(
                        "a node with negative allocatable cpu",
                        n -> n.editStatus()
                                .addToAllocatable("cpu", new Quantity("-4"))
                                .endStatus(),
                        "refused: Node \"hostile-19\" is invalid: status.allocatable.cpu: Invalid value: \"-4\": must be greater than or equal to 0"),
                node(
                        "a node whose allocatable memory is no quantity",
                        n -> n.editStatus()
                                .addToAllocatable("memory", new Quantity("lots"))
                                .endStatus(),
                        "refused: Node in version \"v1\" cannot be handled as a Node: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
                node(
                        "a node with a taint of an unknown effect",
                        n -> n.editSpec()
                                .addNewTaint()
                                .withKey("k")
                                .withValue("v")
                                .withEffect("Sometimes")
                                .endTaint()
                                .endSpec(),
                        "refused: Node \"hostile-21\" is invalid: metadata.taints[0].effect: Unsupported value: \"Sometimes\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void theObjectIsRefusedOrItsPodToldAndSchedulingGoesOn(Row row) throws Exception {
        String outcome = outcome(row);
        System.out.println("HOSTILE | " + row.what() + " | " + outcome);
        assertEquals(row.outcome(), outcome, row.what());
        String next = "plain-" + (++plain);
        api.create(Pods.pod(next).cpu("10m").build());
        await(next + " bound after " + row.what(), () -> api.nodeOf(next) != null);
    }

    /** "refused: MESSAGE", "bound", or "pending: MESSAGE" for the row's last object, a pod. */
    private static String outcome(Row row) throws Exception {
        List<HasMetadata> objects = row.objects().get();
        for (HasMetadata o : objects) {
            try {
                api.client.resource(o).create();
            } catch (KubernetesClientException e) {
                return "refused: "
                        + (e.getStatus() == null
                                ? e.getMessage()
                                : e.getStatus().getMessage());
            }
        }
        String pod = objects.get(objects.size() - 1).getMetadata().getName();
        await(
                pod + " bound or told why",
                () -> api.nodeOf(pod) != null || !scheduledMessage(pod).isEmpty());
        return api.nodeOf(pod) != null ? "bound" : "pending: " + scheduledMessage(pod);
    }

    private static String scheduledMessage(String pod) {
        Pod p = api.get(pod);
        return Pods.scheduledMessage(p);
    }

    private static int rowNumber;

    private static String name() {
        return "hostile-" + (++rowNumber);
    }

    private static Row pod(String what, java.util.function.UnaryOperator<Pods> pod, String outcome) {
        return new Row(what, () -> List.of(pod.apply(Pods.pod(name())).build()), outcome);
    }

    private static Row spec(String what, java.util.function.UnaryOperator<PodBuilder> pod, String outcome) {
        return new Row(
                what,
                () -> List.of(
                        pod.apply(new PodBuilder(Pods.pod(name()).cpu("10m").build()))
                                .build()),
                outcome);
    }

    /** A node changed by {@code node}, then a pod that may only go there. */
    private static Row node(String what, java.util.function.UnaryOperator<NodeBuilder> node, String outcome) {
        return new Row(
                what,
                () -> {
                    String name = name();
                    Node n = node.apply(new NodeBuilder(
                                    Nodes.node(name).cpu("8").memory("16Gi").build()))
                            .build();
                    Pod only = new PodBuilder(Pods.pod(name + "-pod").cpu("10m").build())
                            .editSpec()
                            .addToNodeSelector("kubernetes.io/hostname", name)
                            .endSpec()
                            .build();
                    return List.of(n, only);
                },
                outcome);
    }

    /** The pod requires a node whose zone label meets {@code operator} with {@code values}. */
    private static PodBuilder requiredZone(PodBuilder b, String operator, String... values) {
        return b.editSpec()
                .withNewAffinity()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm()
                .addNewMatchExpression()
                .withKey("zone")
                .withOperator(operator)
                .withValues(values)
                .endMatchExpression()
                .endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .endAffinity()
                .endSpec();
    }

    private static List<Toleration> tolerations(int n) {
        List<Toleration> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new TolerationBuilder()
                    .withKey("k" + i)
                    .withOperator("Equal")
                    .withValue("v")
                    .withEffect("NoSchedule")
                    .build());
        }
        return out;
    }
}
