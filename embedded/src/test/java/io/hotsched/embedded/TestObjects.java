package io.hotsched.embedded;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;

/** The objects the tests create: a pause pod, its template, a Deployment of it, a node, a binding. */
public final class TestObjects {

    private TestObjects() {}

    public static Pod pod(String ns, String name) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .endMetadata()
                .withSpec(template("").getSpec())
                .build();
    }

    /** A pod with the label app={@code app}. */
    public static Pod pod(String ns, String name, String app) {
        return new PodBuilder(pod(ns, name))
                .editMetadata()
                .addToLabels("app", app)
                .endMetadata()
                .build();
    }

    /** A pause container's template labelled app={@code app} (no label when it is empty). */
    public static PodTemplateSpec template(String app) {
        PodTemplateSpecBuilder t = new PodTemplateSpecBuilder()
                .withNewMetadata()
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("pause")
                .endContainer()
                .withRestartPolicy("Always")
                .endSpec();
        return (app.isEmpty() ? t : t.editMetadata().addToLabels("app", app).endMetadata()).build();
    }

    /** A Deployment that selects its pods by app={@code name}. */
    public static Deployment deployment(String name, int replicas) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .withNewSelector()
                .addToMatchLabels("app", name)
                .endSelector()
                .withTemplate(template(name))
                .endSpec()
                .build();
    }

    public static Node node(String name, String hostname) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("kubernetes.io/hostname", hostname)
                .endMetadata()
                .build();
    }

    public static Binding binding(String pod, String node) {
        return new BindingBuilder()
                .withNewMetadata()
                .withName(pod)
                .endMetadata()
                .withNewTarget()
                .withKind("Node")
                .withName(node)
                .endTarget()
                .build();
    }
}
