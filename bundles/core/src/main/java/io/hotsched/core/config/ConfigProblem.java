package io.hotsched.core.config;

/**
 * One thing wrong in a configuration file: where (file, line, field path) and what.
 *
 * @param line 1-based; 0 when unknown
 */
public record ConfigProblem(String file, int line, String field, String message) {

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(file);
        if (line > 0) {
            b.append(':').append(line);
        }
        b.append(": ");
        if (field != null && !field.isEmpty()) {
            b.append(field).append(": ");
        }
        return b.append(message).toString();
    }
}
