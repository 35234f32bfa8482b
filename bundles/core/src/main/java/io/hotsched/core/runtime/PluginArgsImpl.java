package io.hotsched.core.runtime;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.PluginArgs;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.json.JsonMapper;

/** A plugin's raw arguments, bound to the plugin's args type with Jackson, strictly. */
public final class PluginArgsImpl implements PluginArgs {

    /**
     * A mapper per conversion: a shared one caches (de)serializers per type, so it would hold the
     * args classes, and with them the class loaders, of every plugin bundle revision it ever
     * converted for. Args are converted once per plugin when a profile is built.
     */
    private static JsonMapper mapper() {
        return JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .changeDefaultVisibility(v -> v.withFieldVisibility(JsonAutoDetect.Visibility.ANY))
                .build();
    }

    private final Map<String, Object> raw;

    public PluginArgsImpl(Map<String, Object> raw) {
        this.raw = raw == null ? Map.of() : raw;
    }

    @Override
    public boolean isEmpty() {
        return raw.isEmpty();
    }

    @Override
    public Map<String, Object> raw() {
        return raw;
    }

    @Override
    public <T> T as(Class<T> type) throws InvalidArgsException {
        try {
            return mapper().convertValue(raw, type);
        } catch (UnrecognizedPropertyException e) {
            String field = path(e.getPath());
            throw new InvalidArgsException(field, "unknown field \"" + e.getPropertyName() + "\"");
        } catch (JacksonException e) {
            String field = path(e.getPath());
            String message = e.getOriginalMessage();
            int cut = message.indexOf(" at [Source");
            throw new InvalidArgsException(
                    field.isEmpty() ? "args" : field,
                    (cut > 0 ? message.substring(0, cut) : message).replace('\n', ' '));
        }
    }

    private static String path(List<JacksonException.Reference> refs) {
        StringBuilder b = new StringBuilder();
        for (JacksonException.Reference r : refs) {
            if (r.getPropertyName() != null) {
                if (b.length() > 0) {
                    b.append('.');
                }
                b.append(r.getPropertyName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.toString();
    }
}
