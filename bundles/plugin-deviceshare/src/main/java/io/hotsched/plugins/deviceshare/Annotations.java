package io.hotsched.plugins.deviceshare;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** Koordinator's device annotations on pods, and the one JSON mapper DeviceShare reads them with. */
final class Annotations {

    /** Jackson's mapper is thread-safe once built: one for the bundle. */
    static final JsonMapper JSON = JsonMapper.builder().build();

    private Annotations() {}

    /** The object's annotation {@code key}; null when absent or blank. */
    static String of(HasMetadata object, String key) {
        String text = raw(object, key);
        return text == null || text.isBlank() ? null : text;
    }

    /** The object's annotation {@code key} as it is (blank included); null when absent. */
    static String raw(HasMetadata object, String key) {
        Map<String, String> annotations =
                object.getMetadata() == null ? null : object.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(key);
    }
}
