package io.hotsched.launcher;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A Java properties file whose values may refer to other properties as {@code ${name}}: first to
 * keys of the same file, then to the given lookup (for example {@code hotsched.home} and system
 * properties). An unknown name is an error that names the file and the key, never a silent blank.
 */
public final class PropertiesFile {

    private PropertiesFile() {}

    public static Map<String, String> load(Path file, Function<String, String> lookup) throws IOException {
        Properties raw = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            raw.load(in);
        }
        Map<String, String> source = new TreeMap<>();
        raw.stringPropertyNames().forEach(k -> source.put(k, raw.getProperty(k)));
        Map<String, String> resolved = new LinkedHashMap<>();
        for (String key : source.keySet()) {
            resolved.put(key, substitute(file, key, source, lookup, new HashSet<>()));
        }
        return resolved;
    }

    private static String substitute(
            Path file, String key, Map<String, String> source, Function<String, String> lookup, Set<String> visiting)
            throws IOException {
        if (!visiting.add(key)) {
            throw new IOException(file + ": property '" + key + "' refers to itself through ${...}");
        }
        String value = source.get(key);
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < value.length()) {
            int start = value.indexOf("${", i);
            if (start < 0) {
                out.append(value, i, value.length());
                break;
            }
            int end = value.indexOf('}', start);
            if (end < 0) {
                throw new IOException(file + ": property '" + key + "' has an unclosed ${ in '" + value + "'");
            }
            out.append(value, i, start);
            String name = value.substring(start + 2, end);
            String replacement;
            if (source.containsKey(name)) {
                replacement = substitute(file, name, source, lookup, visiting);
            } else {
                replacement = lookup.apply(name);
            }
            if (replacement == null) {
                throw new IOException(file + ": property '" + key + "' refers to ${" + name
                        + "}, which is neither in this file nor a known property");
            }
            out.append(replacement);
            i = end + 1;
        }
        visiting.remove(key);
        return out.toString();
    }
}
