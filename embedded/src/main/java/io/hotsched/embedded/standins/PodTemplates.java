package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A pod made from an owner's template, as upstream's controllers make them. */
final class PodTemplates {

    private PodTemplates() {}

    /**
     * A pod named {@code name} in {@code owner}'s namespace with the template's labels, annotations
     * and spec (copied), {@code extraLabels} added, and {@code owner} as its controller.
     */
    static Pod pod(HasMetadata owner, PodTemplateSpec template, String name, Map<String, String> extraLabels) {
        PodTemplateSpec t = Serialization.clone(template);
        ObjectMeta tm = t.getMetadata() == null ? new ObjectMeta() : t.getMetadata();
        Map<String, String> labels = new HashMap<>(tm.getLabels() == null ? Map.of() : tm.getLabels());
        labels.putAll(extraLabels);
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(owner.getMetadata().getNamespace())
                .withLabels(labels)
                .withAnnotations(tm.getAnnotations())
                .withFinalizers(tm.getFinalizers())
                .withOwnerReferences(List.of(Ownership.controllerRef(owner)))
                .endMetadata()
                .withSpec(t.getSpec())
                .build();
    }

    /** Like {@link #pod}, with a generated name {@code <owner>-xxxxx} (and {@code generateName} set, as upstream). */
    static Pod generated(HasMetadata owner, PodTemplateSpec template, Map<String, String> extraLabels) {
        String prefix = owner.getMetadata().getName() + "-";
        Pod p = pod(owner, template, Names.generated(prefix), extraLabels);
        p.getMetadata().setGenerateName(prefix);
        return p;
    }
}
