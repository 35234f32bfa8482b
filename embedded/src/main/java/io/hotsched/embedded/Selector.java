package io.hotsched.embedded;

import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * A request's label and field selectors, for watches and versioned lists. Labels, name and
 * namespace are read from the store's key of an object (it holds them), so only the other field
 * terms ({@code spec.nodeName}, {@code status.phase} ...) need the object itself.
 */
final class Selector {

    static final Selector NONE = new Selector(List.of(), List.of(), List.of());

    private static final String LABEL = "labels:";

    private final List<LabelQuery.Term> labels;
    /** metadata.name and metadata.namespace terms, answered from the key */
    private final List<FieldSelector.Term> keyFields;
    /** the other field terms, answered from the object */
    private final List<FieldSelector.Term> objectFields;

    private Selector(
            List<LabelQuery.Term> labels, List<FieldSelector.Term> keyFields, List<FieldSelector.Term> objectFields) {
        this.labels = labels;
        this.keyFields = keyFields;
        this.objectFields = objectFields;
    }

    /** The selectors of {@code params}; a 400 naming the one that cannot be read. */
    static Selector of(ListParams params) throws ListParams.Bad {
        List<LabelQuery.Term> labels =
                params.labelSelector.isBlank() ? List.of() : LabelQuery.parse(params.labelSelector);
        if (labels == null) {
            throw new ListParams.Bad("unable to parse requirement: labelSelector \"" + params.labelSelector + "\"");
        }
        List<FieldSelector.Term> fields = FieldSelector.terms(params.fieldSelector);
        if (fields == null) {
            throw new ListParams.Bad("invalid selector: fieldSelector \"" + params.fieldSelector
                    + "\": each term must be field=value, field==value or field!=value");
        }
        if (labels.isEmpty() && fields.isEmpty()) {
            return NONE;
        }
        List<FieldSelector.Term> keyFields = new ArrayList<>();
        List<FieldSelector.Term> objectFields = new ArrayList<>();
        for (FieldSelector.Term t : fields) {
            (keyField(t.field()) != null ? keyFields : objectFields).add(t);
        }
        return new Selector(labels, keyFields, objectFields);
    }

    boolean isEmpty() {
        return labels.isEmpty() && keyFields.isEmpty() && objectFields.isEmpty();
    }

    /** Whether the object of store key {@code key} matches; {@code object} is asked for only when needed. */
    boolean matches(AttributeSet key, Supplier<JsonNode> object) {
        for (LabelQuery.Term t : labels) {
            if (!t.matches(StoreView.attribute(key, LABEL + t.key()))) {
                return false;
            }
        }
        for (FieldSelector.Term t : keyFields) {
            String v = StoreView.attribute(key, keyField(t.field()));
            if (!t.matches(v == null ? "" : v)) {
                return false;
            }
        }
        if (objectFields.isEmpty()) {
            return true;
        }
        JsonNode o = object.get();
        for (FieldSelector.Term t : objectFields) {
            if (!t.matches(o)) {
                return false;
            }
        }
        return true;
    }

    /** The store key's attribute that holds {@code field}, or null when the key does not. */
    private static String keyField(String field) {
        return switch (field) {
            case "metadata.name" -> StoreIndex.NAME;
            case "metadata.namespace" -> "namespace";
            default -> null;
        };
    }
}
