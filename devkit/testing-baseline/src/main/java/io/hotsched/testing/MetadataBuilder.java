package io.hotsched.testing;

import java.util.LinkedHashMap;
import java.util.Map;

/** What the test builders of objects share: a name, and labels and annotations in the order given. */
abstract class MetadataBuilder<B extends MetadataBuilder<B>> {

    final String name;
    final Map<String, String> labels = new LinkedHashMap<>();
    private final Map<String, String> annotations = new LinkedHashMap<>();

    MetadataBuilder(String name) {
        this.name = name;
    }

    public B label(String k, String v) {
        labels.put(k, v);
        return self();
    }

    public B annotation(String k, String v) {
        annotations.put(k, v);
        return self();
    }

    /** A copy of the annotations, or null when there are none (as the API server leaves them). */
    Map<String, String> annotationsOrNull() {
        return annotations.isEmpty() ? null : new LinkedHashMap<>(annotations);
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }
}
