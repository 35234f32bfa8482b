package io.hotsched.testing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Toleration;
import io.hotsched.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds pods for tests: {@code Pods.pod("p").cpu("500m").memory("1Gi").build()}. */
public final class Pods extends MetadataBuilder<Pods> {

    private String namespace = "default";
    private String uid;
    private String nodeName;
    private String schedulerName;
    private Integer priority;
    private String nominatedNodeName;
    private final Map<String, Quantity> requests = new LinkedHashMap<>();
    private final List<Integer> hostPorts = new ArrayList<>();
    private final List<Toleration> tolerations = new ArrayList<>();
    private final List<String> claims = new ArrayList<>();

    private Pods(String name) {
        super(name);
    }

    public static Pods pod(String name) {
        return new Pods(name);
    }

    public Pods namespace(String ns) {
        this.namespace = ns;
        return this;
    }

    public Pods uid(String u) {
        this.uid = u;
        return this;
    }

    public Pods node(String n) {
        this.nodeName = n;
        return this;
    }

    public Pods scheduler(String s) {
        this.schedulerName = s;
        return this;
    }

    public Pods priority(int p) {
        this.priority = p;
        return this;
    }

    public Pods nominated(String node) {
        this.nominatedNodeName = node;
        return this;
    }

    public Pods cpu(String q) {
        return request("cpu", q);
    }

    public Pods memory(String q) {
        return request("memory", q);
    }

    public Pods request(String resource, String q) {
        requests.put(resource, new Quantity(q));
        return this;
    }

    public Pods hostPort(int port) {
        hostPorts.add(port);
        return this;
    }

    public Pods tolerate(String key, String operator, String value, String effect) {
        tolerations.add(new Toleration(effect, key, operator, null, value));
        return this;
    }

    /** A volume {@code v<i>} using the PersistentVolumeClaim {@code claimName}. */
    public Pods claim(String claimName) {
        claims.add(claimName);
        return this;
    }

    public Pod build() {
        ContainerBuilder c = new ContainerBuilder().withName("c").withImage("registry.k8s.io/pause:3.9");
        if (!requests.isEmpty()) {
            c.withNewResources().withRequests(new LinkedHashMap<>(requests)).endResources();
        }
        for (int p : hostPorts) {
            c.addToPorts(new ContainerPortBuilder()
                    .withContainerPort(p)
                    .withHostPort(p)
                    .build());
        }
        Container container = c.build();
        PodBuilder b = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .withUid(uid == null ? namespace + "-" + name + "-uid" : uid)
                .withLabels(labels.isEmpty() ? null : new LinkedHashMap<>(labels))
                .withAnnotations(annotationsOrNull())
                .endMetadata()
                .withNewSpec()
                .withContainers(container)
                .withNodeName(nodeName)
                .withSchedulerName(schedulerName)
                .withPriority(priority)
                .withTolerations(tolerations.isEmpty() ? null : new ArrayList<>(tolerations))
                .endSpec();
        for (int i = 0; i < claims.size(); i++) {
            b.editSpec()
                    .addNewVolume()
                    .withName("v" + i)
                    .withNewPersistentVolumeClaim()
                    .withClaimName(claims.get(i))
                    .endPersistentVolumeClaim()
                    .endVolume()
                    .endSpec();
        }
        if (nominatedNodeName != null) {
            b.withNewStatus().withNominatedNodeName(nominatedNodeName).endStatus();
        }
        return b.build();
    }

    public PodInfo info() {
        return PodInfo.of(build());
    }

    /** The message of the pod's PodScheduled condition; "" when it has none. */
    public static String scheduledMessage(Pod pod) {
        if (pod == null || pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return "";
        }
        return pod.getStatus().getConditions().stream()
                .filter(c -> "PodScheduled".equals(c.getType()))
                .map(c -> String.valueOf(c.getMessage()))
                .findFirst()
                .orElse("");
    }
}
