package io.hotsched.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hotsched.core.admin.PluginView;
import io.hotsched.core.admin.SchedulerAdmin;
import io.hotsched.kube.delivery.BundleFetcher;
import io.hotsched.kube.delivery.DeliveredFolder;
import io.hotsched.kube.delivery.DeliverySettings;
import io.hotsched.kube.delivery.DownloadTrust;
import io.hotsched.kube.delivery.PluginDelivery;
import io.hotsched.platform.trust.TrustPolicy;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plugin delivery through SchedulerPlugin objects on every replica, leader or not
 * ({@link PluginDelivery}), with a client of its own so that its downloads and status writes
 * never take the scheduler's request slots or write budget.
 */
@Component(
        immediate = true,
        configurationPid = "io.hotsched.delivery",
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = DeliverySettings.class)
public final class DeliveryComponent {

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryComponent.class);
    /** Service property of the {@link BooleanSupplier} the leader election asks before it competes. */
    static final String GATE_PROPERTY = "hotsched.gate";

    private final SchedulerAdmin admin;
    private KubernetesClient client;
    private PluginDelivery delivery;
    private ServiceRegistration<BooleanSupplier> gate;

    @Activate
    public DeliveryComponent(@Reference SchedulerAdmin admin) {
        this.admin = admin;
    }

    @Activate
    void activate(BundleContext context, Map<String, Object> properties) throws Exception {
        ClientFactory.activate(DeliverySettings.class, properties, LOG, settings -> start(context, settings));
    }

    private void start(BundleContext context, DeliverySettings settings) throws Exception {
        TrustPolicy trust;
        try {
            trust = TrustPolicy.of(
                    settings.truststore(),
                    settings.truststoreType(),
                    settings.truststorePassword(),
                    settings.signers(),
                    settings.requireSignature());
        } catch (IOException e) {
            // a broken policy must not turn into no policy: every SchedulerPlugin is refused
            LOG.error("Plugin delivery refuses every bundle: etc/io.hotsched.delivery.cfg: {}", e.getMessage());
            trust = TrustPolicy.of("", "", "", "", true);
        }
        client = ClientFactory.create(context, 8);
        String home = context.getProperty("hotsched.home");
        Path dir = Path.of(home == null ? "." : home, "delivered");
        String replica = replica(context, settings);
        delivery = new PluginDelivery(
                client,
                replica,
                "hotsched",
                new DeliveredFolder(dir),
                new BundleFetcher(
                        client,
                        DownloadTrust.context(settings.downloadTruststore(), settings.downloadTruststorePassword()),
                        Duration.ofSeconds(settings.downloadTimeoutSeconds()),
                        settings.maxBundleBytes()),
                trust,
                context,
                this::runState,
                admin::shadowBundle,
                Duration.ofSeconds(settings.installTimeoutSeconds()));
        delivery.start();
        PluginDelivery d = delivery;
        gate = context.registerService(
                BooleanSupplier.class, d::upToDate, new Hashtable<>(Map.of(GATE_PROPERTY, "leadership")));
    }

    /**
     * quarantined if any of the bundle's plugins is, shadow if any runs in shadow, standby if it has
     * plugins and none serves, else active.
     */
    private String runState(String bundle, String version) {
        List<PluginView> mine = admin.plugins().stream()
                .filter(p -> p.bundle().equals(bundle) && p.version().equals(version))
                .toList();
        for (String state : List.of("quarantined", "shadow")) {
            if (mine.stream().anyMatch(p -> p.state().equals(state))) {
                return state;
            }
        }
        if (!mine.isEmpty() && mine.stream().noneMatch(p -> p.state().equals("active"))) {
            return "standby";
        }
        return "active";
    }

    /** The pod's name in a cluster (POD_NAME from the downward API, else HOSTNAME), or the host's. */
    private static String replica(BundleContext context, DeliverySettings settings) throws IOException {
        for (String candidate : new String[] {
            settings.replica(),
            context.getProperty("hotsched.replica"),
            System.getenv("POD_NAME"),
            System.getenv("HOSTNAME")
        }) {
            if (candidate != null && !candidate.isBlank()) {
                return candidate.strip();
            }
        }
        return InetAddress.getLocalHost().getHostName();
    }

    @Deactivate
    void deactivate() {
        Stopping.ifStarted(gate, ServiceRegistration::unregister);
        Stopping.ifStarted(delivery, PluginDelivery::close);
        Stopping.ifStarted(client, KubernetesClient::close);
    }
}
