package io.hotsched.platform.deploy;

import io.hotsched.platform.log.PlatformLogger;
import java.io.File;
import java.net.URL;
import java.util.Locale;
import java.util.Optional;
import org.apache.felix.fileinstall.ArtifactUrlTransformer;

/**
 * Stands before FileInstall's own bundle handling. FileInstall silently sets aside a jar that is
 * not a bundle and logs a stack trace for one it cannot install; this listener claims exactly
 * those files, refuses them with one line that names the file and the reason, and lets valid
 * bundles pass to FileInstall untouched. A refused file is not remembered, so the corrected file
 * is installed as soon as it changes.
 */
public final class DeployGuard implements ArtifactUrlTransformer {

    private final PlatformLogger log;

    public DeployGuard(PlatformLogger log) {
        this.log = log;
    }

    @Override
    public boolean canHandle(File artifact) {
        return isJar(artifact) && BundleFileCheck.problem(artifact).isPresent();
    }

    @Override
    public URL transform(URL artifact) {
        File file = new File(artifact.getPath());
        Optional<String> problem = BundleFileCheck.problem(file);
        problem.ifPresent(reason -> log.error("Refused " + file + ": " + reason
                + ". Nothing was installed; fix the file and it is picked up again."));
        // null tells FileInstall not to install; a file that became valid meanwhile is seen on its next change
        return null;
    }

    private static boolean isJar(File file) {
        return file.getName().toLowerCase(Locale.ROOT).endsWith(".jar");
    }
}
