package io.hotsched.core.osgi;

import io.hotsched.core.metrics.SchedulerEndpoints;
import io.hotsched.core.scheduler.Scheduler;
import jakarta.servlet.Servlet;
import java.io.IOException;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.function.Supplier;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceEvent;
import org.osgi.framework.ServiceListener;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /metrics}, {@code /healthz}, {@code /livez} and {@code /readyz} on the HTTP Whiteboard,
 * with the platform's HTTP service told where to listen ({@link ServingConfig}); moved when
 * {@code metricsAddress} changes. A port that cannot be bound is the HTTP service's to log, never
 * fatal: scheduling matters more than its metrics.
 */
final class MetricsEndpoint {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
    private static final String RUNTIME_FILTER = "(objectClass=org.osgi.service.servlet.runtime.HttpServiceRuntime)";
    /** The Kubernetes bundle's gate of the secure port: nothing is served securely before it is there. */
    private static final String GATE_FILTER =
            "(&(objectClass=jakarta.servlet.Filter)(osgi.http.whiteboard.filter.name=hotsched-delegated-auth))";

    private final Supplier<Scheduler> scheduler;
    private BundleContext context;
    private ServiceRegistration<Servlet> servlet;
    private ServingConfig.Secure secure;
    private final ServiceListener endpoints = this::runtimeChanged;
    private final ServiceListener gates = this::gateChanged;
    private boolean gated;
    private String address;
    private volatile String servedAt;

    /** @param scheduler the running scheduler, or null once stopped */
    MetricsEndpoint(Supplier<Scheduler> scheduler) {
        this.scheduler = scheduler;
    }

    /** Registers the endpoints and serves them on {@code metricsAddress}, or securely as the command line asks. */
    synchronized void start(BundleContext c, String metricsAddress) {
        context = c;
        Scheduler s = scheduler.get();
        try {
            secure = ServingConfig.Secure.fromProperties(c::getProperty);
        } catch (NumberFormatException e) {
            LOG.error("hotsched.securePort \"{}\" is not a port number; no endpoints are served", e.getMessage());
            return;
        }
        Dictionary<String, Object> props = new Hashtable<>();
        props.put("osgi.http.whiteboard.servlet.pattern", SchedulerEndpoints.PATHS.toArray(String[]::new));
        props.put("osgi.http.whiteboard.servlet.name", "hotsched-endpoints");
        servlet = c.registerService(
                Servlet.class,
                new SchedulerEndpoints(
                        s.metrics(),
                        () -> {
                            Scheduler now = scheduler.get();
                            return now == null ? "not running" : now.notLive();
                        },
                        () -> {
                            Scheduler now = scheduler.get();
                            return now == null ? "stopped" : now.notReady();
                        }),
                props);
        try {
            c.addServiceListener(endpoints, RUNTIME_FILTER);
            if (secure != null) {
                c.addServiceListener(gates, GATE_FILTER);
                gated = c.getServiceReferences((String) null, GATE_FILTER) != null;
                if (!gated) {
                    LOG.info("Secure serving waits for the delegated authentication of the Kubernetes connection");
                }
            }
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
        if (secure != null) {
            LOG.info(
                    "Secure serving on {}:{} (metricsAddress {} is not used)",
                    secure.bindAddress(),
                    secure.port(),
                    metricsAddress);
        }
        serveOn(metricsAddress);
    }

    private synchronized void gateChanged(ServiceEvent e) {
        boolean now = e.getType() != ServiceEvent.UNREGISTERING;
        if (now != gated) {
            gated = now;
            String a = address;
            address = null;
            serveOn(a);
        }
    }

    /** Serves on {@code wanted} (host:port; empty: nowhere) unless it already does. */
    synchronized void serveOn(String wanted) {
        String a = wanted == null ? "" : wanted.trim();
        if (context == null || a.equals(address)) {
            return;
        }
        address = a;
        Hashtable<String, Object> wantedConfig;
        try {
            // without its gate the secure port would serve /metrics to anyone: it stays closed
            wantedConfig = secure != null && !gated ? ServingConfig.of("", null) : ServingConfig.of(a, secure);
        } catch (IllegalArgumentException e) {
            LOG.error("etc/io.hotsched.scheduler.cfg: {}; no metrics are served", e.getMessage());
            wantedConfig = ServingConfig.of("", null);
        }
        ServiceReference<ConfigurationAdmin> ref = context.getServiceReference(ConfigurationAdmin.class);
        if (ref == null) {
            LOG.error("No Config Admin service: the HTTP service cannot be told where to serve /metrics");
            return;
        }
        ConfigurationAdmin admin = context.getService(ref);
        try {
            Configuration http = admin.getConfiguration(ServingConfig.PID, "?");
            http.updateIfDifferent(wantedConfig);
        } catch (IOException e) {
            LOG.error("The HTTP service's configuration cannot be written: {}", e.toString());
        } finally {
            context.ungetService(ref);
        }
    }

    private void runtimeChanged(ServiceEvent e) {
        if (e.getType() != ServiceEvent.UNREGISTERING) {
            Object at = e.getServiceReference().getProperty("osgi.http.endpoint");
            String text = at == null ? null : endpointText(at);
            if (text != null && !text.equals(servedAt)) {
                servedAt = text;
                LOG.info("Serving /metrics, /healthz, /livez and /readyz on {}", text);
            }
        }
    }

    private static String endpointText(Object at) {
        return at instanceof String[] list ? String.join(", ", list) : String.valueOf(at);
    }

    synchronized void close() {
        if (context != null) {
            context.removeServiceListener(endpoints);
            context.removeServiceListener(gates);
        }
        if (servlet != null) {
            try {
                servlet.unregister();
            } catch (IllegalStateException alreadyGone) {
                // the bundle stops: the framework unregistered it
            }
            servlet = null;
        }
        address = null;
        context = null;
    }
}
