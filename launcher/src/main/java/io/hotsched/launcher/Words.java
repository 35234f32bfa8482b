package io.hotsched.launcher;

import io.hotsched.embedded.standins.StandIn;
import java.util.List;
import java.util.Set;

/**
 * The words of a command line, one option at a time, with its value either as the next word or
 * after {@code =} ({@code --port 8080}, {@code --port=8080}); shared by {@link Options} and
 * {@link ApiServerOptions} so that both read and refuse words alike.
 */
final class Words {

    private final List<String> words;
    private int next;
    private String inline;

    Words(String... args) {
        this.words = List.of(args);
    }

    /** The next option word without its {@code =value}, or null at the end. */
    String option() {
        if (next >= words.size()) {
            return null;
        }
        String word = words.get(next++);
        inline = null;
        int eq = word.indexOf('=');
        if (word.startsWith("--") && eq > 0) {
            inline = word.substring(eq + 1);
            word = word.substring(0, eq);
        }
        return word;
    }

    /** The value of option {@code word}. */
    String value(String word) throws Options.UsageException {
        if (inline != null) {
            return inline;
        }
        if (next >= words.size() || words.get(next).startsWith("--")) {
            throw new Options.UsageException("option '" + word + "' needs a value");
        }
        return words.get(next++);
    }

    /** True, for an option that takes no value. */
    boolean flag(String word) throws Options.UsageException {
        if (inline != null) {
            throw new Options.UsageException("option '" + word + "' takes no value");
        }
        return true;
    }

    /** The value of option {@code word} as a port number; 0 asks for a free one. */
    int port(String word) throws Options.UsageException {
        String value = value(word);
        try {
            int p = Integer.parseInt(value);
            if (p < 0 || p > 65535) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw new Options.UsageException(word + " '" + value + "' is not a port number (0-65535)");
        }
    }

    /** Removes the stand-ins the value of {@code word} names (comma-separated) from {@code on}. */
    void turnOff(String word, Set<StandIn> on) throws Options.UsageException {
        for (String name : value(word).split(",")) {
            try {
                on.remove(StandIn.named(name));
            } catch (IllegalArgumentException e) {
                throw new Options.UsageException(word + ": " + e.getMessage());
            }
        }
    }
}
