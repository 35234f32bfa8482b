package io.hotsched.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * What {@code kubectl explain} says about the built-in types and fields scheduler users look at
 * (pod spec, affinity, tolerations, spread constraints, resources, node spec and status): short
 * descriptions of our own, in {@code descriptions.properties}, keyed by the Go type's name and
 * {@code Type.field}. Types and fields not there have none, as before.
 */
final class Descriptions {

    private static final Properties TEXT = load();

    private Descriptions() {}

    /** The description of the type a schema is named for ({@code io.k8s.api.core.PodSpec}), or null. */
    static String ofType(String schemaName) {
        return TEXT.getProperty(simple(schemaName));
    }

    /** The description of {@code field} of that type, or null. */
    static String ofField(String schemaName, String field) {
        return TEXT.getProperty(simple(schemaName) + "." + field);
    }

    private static String simple(String schemaName) {
        return schemaName.substring(schemaName.lastIndexOf('.') + 1);
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = Descriptions.class.getResourceAsStream("descriptions.properties")) {
            if (in != null) {
                p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
