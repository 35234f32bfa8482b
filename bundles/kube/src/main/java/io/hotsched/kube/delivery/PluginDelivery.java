package io.hotsched.kube.delivery;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.hotsched.kube.Daemons;
import io.hotsched.platform.deploy.BundleFileCheck;
import io.hotsched.platform.trust.TrustPolicy;
import io.hotsched.platform.trust.Untrusted;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.Version;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this replica's delivered bundles in line with the SchedulerPlugin objects: for each one,
 * fetches the jar, checks its digest, that it is a bundle (the deploy/ folder's rules and words)
 * and its signature, and hands it to FileInstall through the {@link DeliveredFolder}; a new
 * version goes in beside the old one, which is removed once the new one runs, so a refused
 * upgrade leaves the old version serving. Every outcome goes to the object's status (this
 * replica's entry), the log and an Event.
 *
 * <p>All work runs on one thread of its own, so downloads (bounded in time) never hold the
 * scheduling loop or the informers' threads.
 */
public final class PluginDelivery implements AutoCloseable {

    public static final String API_VERSION = "hotsched.io/v1alpha1";
    public static final String KIND = "SchedulerPlugin";

    private static final Logger LOG = LoggerFactory.getLogger(PluginDelivery.class);
    /** How often states are looked at again (quarantine, standby), and a passing failure retried. */
    private static final long TICK_SECONDS = 5;

    private static final long RETRY_MILLIS = 30_000;
    private static final long NOT_SERVED_RETRY_SECONDS = 30;

    /** A refused attempt: the spec it was for, and whether to try again after a while. */
    private record Refused(String attempt, boolean passing, long at) {}

    private final KubernetesClient client;
    private final String replica;
    private final DeliveredFolder folder;
    private final BundleFetcher fetcher;
    private final TrustPolicy trust;
    private final BundleOutcome outcome;
    private final BiFunction<String, String, String> runState;
    private final Shadowing shadowing;
    private final StatusWriter status;
    private final DeliveryEvents events;
    private final Duration installTimeout;
    private final ScheduledExecutorService worker = Daemons.singleThread("hotsched-plugin-delivery");
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    // written by the worker only; read by the leader election's thread too (upToDate)
    private final Map<String, Installed> installed = new ConcurrentHashMap<>();
    private final Map<String, Refused> refused = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Object>> reported = new LinkedHashMap<>();
    private volatile SharedIndexInformer<GenericKubernetesResource> informer;
    /** Whether the cluster serves SchedulerPlugin, as far as the last look found (true until looked). */
    private volatile boolean served = true;

    /**
     * Sets whether a bundle version runs in shadow on this replica, for a SchedulerPlugin's
     * {@code spec.shadow}; returns what changed, one line each.
     */
    @FunctionalInterface
    public interface Shadowing {
        List<String> set(String bundle, String version, boolean shadow);
    }

    /**
     * @param runState the state (active, standby, shadow, quarantined) of an installed bundle, by symbolic name and
     *     version
     * @param shadowing puts the plugins of a bundle version in shadow or promotes them
     */
    public PluginDelivery(
            KubernetesClient client,
            String replica,
            String component,
            DeliveredFolder folder,
            BundleFetcher fetcher,
            TrustPolicy trust,
            BundleContext context,
            BiFunction<String, String, String> runState,
            Shadowing shadowing,
            Duration installTimeout) {
        this.client = client;
        this.replica = replica;
        this.folder = folder;
        this.fetcher = fetcher;
        this.trust = trust;
        this.outcome = new BundleOutcome(context);
        this.runState = runState;
        this.shadowing = shadowing;
        this.status = new StatusWriter(client, replica);
        this.events = new DeliveryEvents(client, component, replica);
        this.installTimeout = installTimeout;
    }

    /** Starts in the background; returns at once. */
    public void start() {
        LOG.info("Plugin delivery as replica {} into {}: {}", replica, folder.dir(), trust.describe());
        worker.execute(this::restore);
        worker.execute(this::watch);
    }

    /** Jars delivered before a restart are checked again against today's trust roots; refused ones are deleted. */
    private void restore() {
        try {
            for (Path jar : folder.jars()) {
                String owner = DeliveredFolder.owner(jar).orElseThrow();
                try {
                    Attributes main = manifest(jar);
                    String bsn = symbolicName(main);
                    installed.put(
                            owner,
                            new Installed(
                                    jar.getFileName().toString(),
                                    bsn,
                                    version(main),
                                    sha256(Files.readAllBytes(jar)),
                                    trust.check(jar.toFile(), bsn),
                                    // it arrives serving; reconcile puts it in shadow before this replica may lead
                                    false));
                } catch (Untrusted | IOException e) {
                    LOG.warn("Removing {} delivered earlier: {}", jar.getFileName(), e.getMessage());
                    Files.deleteIfExists(jar);
                }
            }
        } catch (IOException e) {
            LOG.error("Cannot read {}: {}", folder.dir(), e.toString());
        }
    }

    private void watch() {
        try {
            client.genericKubernetesResources(API_VERSION, KIND).list();
        } catch (KubernetesClientException e) {
            served = e.getCode() != 404;
            if (e.getCode() == 404) {
                LOG.warn(
                        "The cluster does not serve {} ({}): no plugin delivery until it does"
                                + " (kubectl apply -f etc/crds/schedulerplugins.hotsched.io.yaml); looking again every {} s",
                        KIND,
                        API_VERSION,
                        NOT_SERVED_RETRY_SECONDS);
            } else {
                LOG.warn(
                        "Cannot list {} objects ({}); trying again in {} s",
                        KIND,
                        e.getMessage(),
                        NOT_SERVED_RETRY_SECONDS);
            }
            worker.schedule(this::watch, NOT_SERVED_RETRY_SECONDS, TimeUnit.SECONDS);
            return;
        }
        informer = client.genericKubernetesResources(API_VERSION, KIND).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(GenericKubernetesResource o) {
                enqueue(o.getMetadata().getName());
            }

            @Override
            public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource o) {
                enqueue(o.getMetadata().getName());
            }

            @Override
            public void onDelete(GenericKubernetesResource o, boolean unknownFinalState) {
                enqueue(o.getMetadata().getName());
            }
        });
        // objects deleted while this replica was down: their jars go
        for (String name : Set.copyOf(installed.keySet())) {
            enqueue(name);
        }
        worker.scheduleWithFixedDelay(this::tick, TICK_SECONDS, TICK_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * Whether this replica has dealt with every SchedulerPlugin as it is now: each active one's
     * digest installed (or refused, which it would be again), each inactive one removed. Without
     * SchedulerPlugin served there is nothing to wait for; before the first listing, not yet.
     */
    public boolean upToDate() {
        SharedIndexInformer<GenericKubernetesResource> i = informer;
        if (i == null) {
            return !served;
        }
        for (GenericKubernetesResource o : i.getStore().list()) {
            String name = o.getMetadata().getName();
            PluginSpec spec;
            try {
                spec = PluginSpec.of(o);
            } catch (Refusal r) {
                continue;
            }
            Installed have = installed.get(name);
            Refused no = refused.get(name);
            boolean done = !spec.active()
                    ? have == null
                    : (have != null && have.sha256().equals(spec.sha256()) && have.shadow() == spec.shadow())
                            || (no != null && no.attempt().equals(spec.sha256() + "@" + spec.generation()));
            if (!done) {
                return false;
            }
        }
        return true;
    }

    private void tick() {
        SharedIndexInformer<GenericKubernetesResource> i = informer;
        if (i != null) {
            i.getStore().listKeys().forEach(this::enqueue);
        }
    }

    private void enqueue(String name) {
        if (pending.add(name)) {
            worker.execute(() -> {
                pending.remove(name);
                try {
                    reconcile(name);
                } catch (RuntimeException e) {
                    LOG.error("Delivering SchedulerPlugin {} failed: {}", name, e.toString(), e);
                }
            });
        }
    }

    private void reconcile(String name) {
        GenericKubernetesResource o = informer.getStore().getByKey(name);
        if (o == null) {
            if (!informer.hasSynced()) {
                return;
            }
            remove(name, null, "its SchedulerPlugin was deleted");
            refused.remove(name);
            reported.remove(name);
            return;
        }
        PluginSpec spec;
        try {
            spec = PluginSpec.of(o);
        } catch (Refusal r) {
            // refused once per generation: the periodic look must not repeat the Event
            String attempt = "spec@" + o.getMetadata().getGeneration();
            Refused before = refused.get(name);
            if (before == null || !before.attempt().equals(attempt)) {
                refused.put(name, new Refused(attempt, false, System.currentTimeMillis()));
                refuse(o, null, "spec", r);
            }
            return;
        }
        Installed current = installed.get(name);
        if (!spec.active()) {
            remove(name, o, "spec.active is false");
            report(o, entry("inactive", null, spec.sha256(), "spec.active is false", spec.generation()));
            return;
        }
        if (current != null && current.sha256().equals(spec.sha256())) {
            String reason = "installed";
            if (current.shadow() != spec.shadow()) {
                reason = applyShadow(o, spec, current.bundle(), current.version());
                current = current.withShadow(spec.shadow());
                installed.put(name, current);
            }
            report(
                    o,
                    entry(
                            runState.apply(current.bundle(), current.version()),
                            current,
                            spec.sha256(),
                            reason,
                            spec.generation()));
            return;
        }
        String attempt = spec.sha256() + "@" + spec.generation();
        Refused before = refused.get(name);
        if (before != null
                && before.attempt().equals(attempt)
                && !(before.passing() && System.currentTimeMillis() - before.at() > RETRY_MILLIS)) {
            return;
        }
        deliver(o, spec, current, attempt);
    }

    private void deliver(GenericKubernetesResource o, PluginSpec spec, Installed current, String attempt) {
        String name = spec.name();
        Path staged = null;
        try {
            byte[] bytes = fetcher.fetch(spec.source());
            String digest = sha256(bytes);
            if (!digest.equals(spec.sha256())) {
                throw new Refusal("digest mismatch: the jar from " + spec.source() + " has SHA-256 " + digest
                        + ", spec.sha256 is " + spec.sha256());
            }
            staged = folder.staging(name, bytes);
            Optional<String> problem = BundleFileCheck.problem(staged.toFile());
            if (problem.isPresent()) {
                throw new Refusal(problem.get());
            }
            Attributes main = manifest(staged);
            String bsn = symbolicName(main);
            String version = version(main);
            TrustPolicy.Signer signer;
            try {
                signer = trust.check(staged.toFile(), bsn);
            } catch (Untrusted u) {
                throw new Refusal(u.getMessage());
            }
            for (Map.Entry<String, Installed> e : installed.entrySet()) {
                if (!e.getKey().equals(name)
                        && e.getValue().bundle().equals(bsn)
                        && e.getValue().version().equals(version)) {
                    throw new Refusal(bsn + " " + version + " is already delivered by SchedulerPlugin " + e.getKey());
                }
            }
            boolean sameVersion = current != null && current.version().equals(version);
            if (spec.shadow() && current != null && !current.shadow() && !sameVersion) {
                throw new Refusal("spec.shadow is true for " + bsn + " " + version + ", but " + current.bundle() + " "
                        + current.version() + " from this SchedulerPlugin serves and an upgrade removes the version"
                        + " it replaces: deliver the version to shadow in a SchedulerPlugin of its own");
            }
            // before the bundle is there, so that its plugins arrive in shadow
            String shadowed =
                    !sameVersion || spec.shadow() != current.shadow() ? applyShadow(o, spec, bsn, version) : "";
            String file = DeliveredFolder.fileName(name, version);
            long writtenAt = System.currentTimeMillis();
            Path live = folder.moveIntoPlace(staged, file);
            staged = null;
            try {
                outcome.await(live, writtenAt, installTimeout);
            } catch (Refusal r) {
                folder.delete(file);
                if (current != null && current.file().equals(file)) {
                    // the same version rebuilt: the update replaced the old revision, which is gone too
                    installed.remove(name);
                }
                throw r;
            }
            if (current != null && !current.file().equals(file)) {
                folder.delete(current.file());
            }
            Installed now = new Installed(file, bsn, version, digest, signer, spec.shadow());
            String what = current == null ? "Installed" : current.version().equals(version) ? "Updated" : "Upgraded";
            String message = "SchedulerPlugin " + name + ": " + what.toLowerCase(Locale.ROOT) + " " + bsn
                    + " "
                    + version
                    + (current == null || current.version().equals(version) ? "" : " (was " + current.version() + ")")
                    + " on replica " + replica + ", sha256 " + digest + ", signed by " + signer
                    + (spec.shadow() ? ", in shadow (spec.shadow)" : "");
            LOG.info(message);
            events.normal(o, what, message);
            report(
                    o,
                    entry(
                            runState.apply(bsn, version),
                            now,
                            digest,
                            shadowed.isEmpty() ? what.toLowerCase(Locale.ROOT) : shadowed,
                            spec.generation()));
            // only now may this replica lead (upToDate): the fleet's status says what it runs before it schedules
            installed.put(name, now);
            refused.remove(name);
        } catch (Refusal r) {
            refused.put(name, new Refused(attempt, r.passing(), System.currentTimeMillis()));
            refuse(o, spec, "bundle", r);
        } catch (IOException e) {
            refused.put(name, new Refused(attempt, true, System.currentTimeMillis()));
            refuse(o, spec, "bundle", new Refusal("cannot write to " + folder.dir() + ": " + e.getMessage(), true));
        } finally {
            if (staged != null) {
                try {
                    Files.deleteIfExists(staged);
                } catch (IOException e) {
                    LOG.warn("Cannot delete {}: {}", staged, e.toString());
                }
            }
        }
    }

    /**
     * Puts {@code bundle} {@code version} in shadow or promotes it as {@code spec.shadow} says, and
     * says so in the log and an Event; returns what changed ("" when nothing did).
     */
    private String applyShadow(GenericKubernetesResource o, PluginSpec spec, String bundle, String version) {
        String changed = String.join(", ", shadowing.set(bundle, version, spec.shadow()));
        if (!changed.isEmpty()) {
            String message = "SchedulerPlugin " + spec.name() + ": spec.shadow is " + spec.shadow() + " on replica "
                    + replica + ": " + changed + (spec.shadow() ? "" : "; the versions that served stand by");
            LOG.info(message);
            events.normal(o, spec.shadow() ? "Shadowed" : "Promoted", message);
            // the other versions' objects change state too (standby, active): their entries say so now
            tick();
        }
        return changed;
    }

    private void refuse(GenericKubernetesResource o, PluginSpec spec, String what, Refusal r) {
        String name = o.getMetadata().getName();
        Installed current = installed.get(name);
        String sha = spec == null ? null : spec.sha256();
        String message =
                "SchedulerPlugin " + name + (sha == null ? "" : " (sha256 " + sha + ")") + " refused on replica "
                        + replica + ": " + r.getMessage()
                        + (current == null ? "" : "; still running " + current.bundle() + " " + current.version());
        LOG.error(message);
        events.warning(o, "Refused", message);
        long generation =
                o.getMetadata().getGeneration() == null ? 0 : o.getMetadata().getGeneration();
        report(o, entry("refused", current, sha, r.getMessage(), generation));
    }

    private void remove(String name, GenericKubernetesResource o, String why) {
        Installed current = installed.remove(name);
        if (current == null) {
            return;
        }
        try {
            folder.delete(current.file());
        } catch (IOException e) {
            LOG.error("Cannot delete {}: {}", current.file(), e.toString());
            return;
        }
        String message = "SchedulerPlugin " + name + ": removed " + current.bundle() + " " + current.version()
                + " from replica " + replica + " (" + why + "), sha256 " + current.sha256() + ", signed by "
                + current.signer();
        LOG.info(message);
        GenericKubernetesResource about = o;
        if (about == null) {
            // deleted: the event still names it
            about = new GenericKubernetesResource();
            about.setMetadata(new ObjectMetaBuilder().withName(name).build());
        }
        events.normal(about, "Removed", message);
    }

    private static Map<String, Object> entry(
            String state, Installed bundle, String sha, String reason, long generation) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("state", state);
        if (bundle != null) {
            e.put("bundle", bundle.bundle());
            e.put("version", bundle.version());
            e.put("signer", bundle.signer().subject());
        }
        if (sha != null) {
            e.put("sha256", sha);
        }
        e.put("reason", reason);
        e.put("observedGeneration", generation);
        return e;
    }

    /** Writes this replica's entry when it differs from what it wrote last (the time aside). */
    private void report(GenericKubernetesResource o, Map<String, Object> entry) {
        String name = o.getMetadata().getName();
        if (entry.equals(reported.get(name)) && hasEntry(o)) {
            return;
        }
        Map<String, Object> timed = new LinkedHashMap<>(entry);
        timed.put("time", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        try {
            if (status.write(name, timed)) {
                reported.put(name, entry);
            }
        } catch (KubernetesClientException e) {
            LOG.warn("Cannot write the status of SchedulerPlugin {}: {}", name, e.getMessage());
        }
    }

    private boolean hasEntry(GenericKubernetesResource o) {
        return o.getAdditionalProperties().get("status") instanceof Map<?, ?> s
                && s.get("replicas") instanceof List<?> l
                && l.stream().anyMatch(e -> e instanceof Map<?, ?> m && replica.equals(m.get("replica")));
    }

    private static Attributes manifest(Path jar) throws IOException {
        try (JarFile f = new JarFile(jar.toFile(), false)) {
            return f.getManifest().getMainAttributes();
        }
    }

    private static String symbolicName(Attributes main) {
        return main.getValue(Constants.BUNDLE_SYMBOLICNAME).split(";")[0].strip();
    }

    private static String version(Attributes main) {
        String v = main.getValue(Constants.BUNDLE_VERSION);
        return Version.parseVersion(v == null ? null : v.strip()).toString();
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        worker.shutdownNow();
        SharedIndexInformer<GenericKubernetesResource> i = informer;
        if (i != null) {
            i.close();
        }
        outcome.close();
    }
}
