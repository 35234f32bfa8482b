package io.hotsched.itests;

import io.hotsched.testing.TestSigners;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The itests' signers, made once per test JVM at test time ({@link TestSigners}): a trusted
 * signer, in the truststore the replicas are given, and a stranger, not in it.
 */
final class SigningKeys {

    static final String TRUSTED = "itest-signer";
    static final String STRANGER = "stranger";
    static final String PASSWORD = "itest-pass";

    /** Where the keys are: a system property, as this class is loaded twice (before the container, and in it). */
    private static final String DIR_PROPERTY = "hotsched.itest.keys";

    private SigningKeys() {}

    static synchronized TestSigners get() throws IOException {
        String made = System.getProperty(DIR_PROPERTY);
        if (made != null) {
            return TestSigners.in(Path.of(made), PASSWORD);
        }
        Path dir = Files.createTempDirectory("hotsched-itest-keys-");
        TestSigners signers = TestSigners.create(dir, PASSWORD, TRUSTED, STRANGER);
        signers.truststore(TRUSTED);
        System.setProperty(DIR_PROPERTY, dir.toString());
        return signers;
    }

    /** The trust roots for the replicas: the trusted signer's certificate only. */
    static Path truststore() throws IOException {
        return get().truststore(TRUSTED);
    }
}
