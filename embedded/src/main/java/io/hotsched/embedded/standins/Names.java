package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

/**
 * Generated names and template hashes in upstream's shapes: a five-character suffix from
 * apimachinery's alphabet without vowels (so no words are spelt), and a pod template hash that is
 * FNV-1a of the template, written in that alphabet. The hash is over our JSON of the template, not
 * over Go's printing of it, so its values differ from a real cluster's; its stability does not.
 */
final class Names {

    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Names() {}

    /** {@code prefix} and five random characters, as the API server resolves {@code generateName}. */
    static String generated(String prefix) {
        StringBuilder b = new StringBuilder(prefix);
        for (int i = 0; i < 5; i++) {
            b.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }

    /** The hash of {@code template} (any model object) and a collision count, as a label value. */
    static String templateHash(Object template, Integer collisionCount) {
        int h = 0x811c9dc5;
        byte[] bytes = (Serialization.asJson(template) + (collisionCount == null ? "" : collisionCount))
                .getBytes(StandardCharsets.UTF_8);
        for (byte x : bytes) {
            h ^= x & 0xff;
            h *= 0x01000193;
        }
        return safeEncode(Integer.toUnsignedString(h));
    }

    /** Each character mapped into the alphabet, as apimachinery's SafeEncodeString does. */
    private static String safeEncode(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            b.append(ALPHABET.charAt(c % ALPHABET.length()));
        }
        return b.toString();
    }
}
