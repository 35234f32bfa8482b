package io.hotsched.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hotsched.api.cluster.ClusterBackend;
import io.hotsched.api.cluster.ClusterEvents;
import io.hotsched.core.admin.ProfileView;
import io.hotsched.core.admin.QueueView;
import io.hotsched.core.admin.SchedulerAdmin;
import io.hotsched.kube.serving.AlwaysAllowPaths;
import io.hotsched.kube.serving.ApiServerReviewer;
import io.hotsched.kube.serving.DelegatedAuthFilter;
import jakarta.servlet.Filter;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connects the scheduler to the API server the command line names ({@code hotsched.master},
 * {@code hotsched.kubeconfig}; else the environment), registers the {@link ClusterBackend}, and
 * prints the run report once the queue settles; with {@code hotsched.once} it then stops
 * hotsched.
 */
@Component(immediate = true, configurationPid = "io.hotsched.kube", configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = KubeSettings.class)
public final class KubeComponent {

    private static final Logger LOG = LoggerFactory.getLogger(KubeComponent.class);
    /** Set by this component for the launcher when {@code --once} ends the run: the exit code. */
    public static final String EXIT_CODE_PROPERTY = "hotsched.exit.code";

    private final ClusterEvents events;
    private final SchedulerAdmin admin;
    private KubernetesClient client;
    private KubeConnection connection;
    private ServiceRegistration<ClusterBackend> backend;
    private Thread reporter;
    private LeaderElection election;
    private ServiceRegistration<Filter> gate;

    @Activate
    public KubeComponent(@Reference ClusterEvents events, @Reference SchedulerAdmin admin) {
        this.events = events;
        this.admin = admin;
    }

    @Activate
    void activate(BundleContext context, Map<String, Object> properties) throws Exception {
        ClientFactory.activate(KubeSettings.class, properties, LOG, settings -> connect(context, settings));
    }

    private void connect(BundleContext context, KubeSettings settings) throws Exception {
        String master = context.getProperty("hotsched.master");
        String kubeconfig = context.getProperty("hotsched.kubeconfig");
        client = ClientFactory.create(master, kubeconfig, settings.maxConcurrentRequests());
        LOG.info("Connecting to the API server at {}", client.getMasterUrl());
        KubeBackend writes = new KubeBackend(client, settings.component(), settings.qps(), settings.burst());
        if (Boolean.parseBoolean(context.getProperty("hotsched.leaderElect"))) {
            String identity = InetAddress.getLocalHost().getHostName() + "_" + UUID.randomUUID();
            election = new LeaderElection(
                    client,
                    events,
                    new Lease(
                            settings.leaseNamespace(),
                            settings.leaseName(),
                            identity,
                            Duration.ofSeconds(settings.leaseDurationSeconds()),
                            Duration.ofSeconds(settings.renewDeadlineSeconds()),
                            Duration.ofSeconds(settings.retryPeriodSeconds())),
                    this::mayLead);
            writes.writeOnlyWhile(election::holdsLease);
            election.start();
        }
        backend = context.registerService(ClusterBackend.class, writes, null);
        if (context.getProperty("hotsched.securePort") != null) {
            gate = registerGate(context);
        }
        connection = new KubeConnection(client, events);
        connection.start();
        boolean once = Boolean.parseBoolean(context.getProperty("hotsched.once"));
        if (settings.report() || once) {
            reporter = new Thread(() -> report(context, once), "hotsched-report");
            reporter.setDaemon(true);
            reporter.start();
        }
    }

    /** Plugin delivery's word on whether this replica has the fleet's bundles; none (not running): yes. */
    @Reference(
            cardinality = ReferenceCardinality.OPTIONAL,
            policy = ReferencePolicy.DYNAMIC,
            target = "(" + DeliveryComponent.GATE_PROPERTY + "=leadership)")
    private volatile BooleanSupplier leadershipGate;

    private boolean mayLead() {
        BooleanSupplier gate = leadershipGate;
        return gate == null || gate.getAsBoolean();
    }

    /** The secure port's delegated authentication and authorization, on the HTTP Whiteboard. */
    private ServiceRegistration<Filter> registerGate(BundleContext context) {
        String paths = context.getProperty("hotsched.authorizationAlwaysAllowPaths");
        Dictionary<String, Object> props = new Hashtable<>();
        props.put("osgi.http.whiteboard.filter.pattern", "/*");
        props.put("osgi.http.whiteboard.filter.name", DelegatedAuthFilter.NAME);
        return context.registerService(
                Filter.class,
                new DelegatedAuthFilter(
                        new ApiServerReviewer(client),
                        AlwaysAllowPaths.parse(paths == null ? "/healthz,/readyz,/livez" : paths)),
                props);
    }

    @Deactivate
    void deactivate() {
        Stopping.ifStarted(gate, ServiceRegistration::unregister);
        Stopping.ifStarted(reporter, Thread::interrupt);
        Stopping.ifStarted(election, LeaderElection::close);
        Stopping.ifStarted(backend, ServiceRegistration::unregister);
        Stopping.ifStarted(connection, KubeConnection::close);
        Stopping.ifStarted(client, KubernetesClient::close);
    }

    private static final long PLUGIN_WAIT_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final String WAITING = "paused: waiting for plugin";

    /**
     * Waits until the profiles have their plugins (at most 20 s) and the queue settles (nothing
     * active, in backoff or in flight, three times in a row), then prints the table.
     */
    private void report(BundleContext context, boolean once) {
        try {
            while (!connection.synced()) {
                Thread.sleep(50);
            }
            Thread.sleep(1000);
            // plugin bundles in deploy/ arrive after the start; a profile waiting for them is not settled
            long waitUntil = System.nanoTime() + PLUGIN_WAIT_NANOS;
            while (System.nanoTime() < waitUntil
                    && admin.profiles().stream().anyMatch(p -> p.state().startsWith(WAITING))) {
                Thread.sleep(100);
            }
            int quiet = 0;
            while (quiet < 3) {
                Thread.sleep(300);
                Map<String, Integer> c = admin.queue().counts();
                quiet = c.get("active") + c.get("backoff") + c.get("inFlight") == 0 ? quiet + 1 : 0;
            }
            Set<String> profiles =
                    admin.profiles().stream().map(ProfileView::name).collect(Collectors.toSet());
            Map<String, String> reasons = new HashMap<>();
            for (QueueView.Entry e : admin.queue().pods()) {
                if (e.lastFailure() != null) {
                    reasons.put(e.pod(), e.lastFailure());
                }
            }
            System.out.println();
            System.out.print(PodTable.render(connection.pods(), profiles, reasons));
            System.out.flush();
            if (once) {
                System.setProperty(EXIT_CODE_PROPERTY, "0");
                context.getBundle(0).stop();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (BundleException | RuntimeException e) {
            LOG.error("The run report failed: {}", e.toString());
            if (once) {
                System.setProperty(EXIT_CODE_PROPERTY, "1");
                try {
                    context.getBundle(0).stop();
                } catch (BundleException ignored) {
                    // the launcher's own timeout ends the process
                }
            }
        }
    }
}
