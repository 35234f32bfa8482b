package io.hotsched.platform.deploy;

import io.hotsched.platform.log.PlatformLogger;
import io.hotsched.platform.trust.Untrusted;
import java.io.File;
import java.net.URL;
import java.util.Locale;
import java.util.Optional;
import org.apache.felix.fileinstall.ArtifactUrlTransformer;

/**
 * Stands before FileInstall's own bundle handling. FileInstall silently sets aside a jar that is
 * not a bundle and logs a stack trace for one it cannot install; this listener claims exactly
 * those files, and, when the signature policy is on for {@code deploy/}, the jars it does not
 * trust. It refuses them with one line that names the file and the reason, and lets valid bundles
 * pass to FileInstall untouched. A refused file is not remembered, so the corrected file is
 * installed as soon as it changes.
 */
public final class DeployGuard implements ArtifactUrlTransformer {

    private final PlatformLogger log;
    private final DeploySignatures signatures;

    public DeployGuard(PlatformLogger log, DeploySignatures signatures) {
        this.log = log;
        this.signatures = signatures;
    }

    @Override
    public boolean canHandle(File artifact) {
        if (!isJar(artifact)) {
            return false;
        }
        if (BundleFileCheck.problem(artifact).isPresent()) {
            return true;
        }
        try {
            DeploySignatures.Verdict v = signatures.check(artifact);
            if (v.verified()) {
                log.info("Verified " + artifact + ": " + v.bsn() + " " + v.version() + ", sha256 " + v.sha256()
                        + ", signed by " + v.signer());
            }
            return false;
        } catch (Untrusted e) {
            return true;
        }
    }

    @Override
    public URL transform(URL artifact) {
        File file = new File(artifact.getPath());
        Optional<String> problem = BundleFileCheck.problem(file).or(() -> untrusted(file));
        problem.ifPresent(reason -> log.error("Refused " + file + ": " + reason
                + ". Nothing was installed; fix the file and it is picked up again."));
        // null tells FileInstall not to install; a file that became valid meanwhile is seen on its next change
        return null;
    }

    private Optional<String> untrusted(File file) {
        try {
            signatures.check(file);
            return Optional.empty();
        } catch (Untrusted e) {
            return Optional.of(e.getMessage() + " (verifyDeploy = true in etc/io.hotsched.delivery.cfg)");
        }
    }

    private static boolean isJar(File file) {
        return file.getName().toLowerCase(Locale.ROOT).endsWith(".jar");
    }
}
