package io.hotsched.platform;

import io.hotsched.platform.deploy.DeployGuard;
import io.hotsched.platform.deploy.DeploySignatures;
import io.hotsched.platform.log.LogBridge;
import java.nio.file.Path;
import java.util.Hashtable;
import org.apache.felix.fileinstall.ArtifactListener;
import org.apache.felix.fileinstall.ArtifactUrlTransformer;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;

/**
 * Starts the platform services. A plain activator rather than Declarative Services on purpose:
 * the log bridge and the deploy guard must be in place before SCR and FileInstall start, and SCR
 * starts last.
 */
public final class Activator implements BundleActivator {

    private LogBridge bridge;
    private ServiceRegistration<?> guard;

    @Override
    public void start(BundleContext context) {
        bridge = new LogBridge(context);
        bridge.open();
        Hashtable<String, Object> props = new Hashtable<>();
        props.put(Constants.SERVICE_DESCRIPTION, "Refuses deploy/ files that are not OSGi bundles, or not trusted");
        String home = context.getProperty("hotsched.home");
        // Ranked above FileInstall's own bundle handling is not needed: FileInstall asks the
        // registered listeners before its built-in bundle transformer.
        guard = context.registerService(
                new String[] {ArtifactUrlTransformer.class.getName(), ArtifactListener.class.getName()},
                new DeployGuard(
                        bridge.loggerFor(context.getBundle(), DeployGuard.class.getName()),
                        new DeploySignatures(
                                Path.of(home == null ? "." : home, "etc", "io.hotsched.delivery.cfg"),
                                context::getProperty)),
                props);
    }

    @Override
    public void stop(BundleContext context) {
        if (guard != null) {
            guard.unregister();
            guard = null;
        }
        if (bridge != null) {
            bridge.close();
            bridge = null;
        }
    }
}
