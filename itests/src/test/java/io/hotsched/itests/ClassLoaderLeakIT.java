package io.hotsched.itests;

import static org.junit.Assert.assertEquals;

import io.hotsched.itest.plugins.ItestVersion;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * Issue 7, scenario 8: a plugin bundle the profile uses is updated 50 times, scheduling a pod with
 * each version; afterwards the class loaders of all old revisions can be collected (nothing in the
 * scheduler keeps a plugin instance, factory or class of a revision that left), and metaspace
 * does not grow with the number of updates.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ClassLoaderLeakIT extends InMemoryClusterSupport {

    static final int UPDATES = 50;

    @Override
    protected String schedulerYaml() {
        return UpgradeUnderLoadIT.CONFIG;
    }

    private void refresh(Bundle b) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        context.getBundle(0).adapt(FrameworkWiring.class).refreshBundles(List.of(b), e -> {
            if (e.getType() == FrameworkEvent.PACKAGES_REFRESHED) {
                done.countDown();
            }
        });
        done.await(20, TimeUnit.SECONDS);
    }

    private static long metaspaceBytes() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getName().equals("Metaspace")) {
                return pool.getUsage().getUsed();
            }
        }
        return -1;
    }

    /** Where the collector puts the references to old class loaders it cleared. */
    private final ReferenceQueue<ClassLoader> cleared = new ReferenceQueue<>();

    private int collected;

    /**
     * Full collections until {@code expected} of the old class loaders have been collected (their
     * references enqueued), or the collector leaves them for {@code wait}; after each collection
     * it waits for the references it cleared to be enqueued, and collects again once none comes.
     */
    private void collect(int expected, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        do {
            System.gc();
            for (Reference<?> r = cleared.remove(250); r != null; r = cleared.poll()) {
                collected++;
            }
        } while (collected < expected && System.nanoTime() < deadline);
    }

    @Test
    public void oldRevisionsOfAnUpdatedPluginBundleCanBeCollected() throws Exception {
        newCluster();
        cluster.addNode(Nodes.node("n1").cpu("64").memory("64Gi").pods(500).build());
        connect();
        dropDefaultPlugins();
        byte[] plugin = Files.readAllBytes(Path.of(System.getProperty("hotsched.itest.plugins.bundle")));
        Bundle b = context.installBundle(
                "itest:plugins", new ByteArrayInputStream(TestBundles.withVersion(plugin, "1.0.0")));
        b.start();
        await("1.0.0 serves", () -> "1.0.0".equals(servingVersion(ItestVersion.NAME)));

        List<WeakReference<ClassLoader>> old = new ArrayList<>();
        long metaspaceAfter10 = 0;
        for (int i = 1; i <= UPDATES; i++) {
            old.add(new WeakReference<>(b.adapt(BundleWiring.class).getClassLoader(), cleared));
            String version = "1.0." + i;
            b.update(new ByteArrayInputStream(TestBundles.withVersion(plugin, version)));
            refresh(b);
            await("version " + version + " serves", () -> version.equals(servingVersion(ItestVersion.NAME)));
            String pod = "p-" + i;
            cluster.addPod(Pods.pod(pod).cpu("10m").build());
            await(pod + " bound by " + version, () -> {
                var p = cluster.pod("default", pod);
                return p != null
                        && p.getMetadata().getAnnotations() != null
                        && version.equals(p.getMetadata().getAnnotations().get(ItestVersion.ANNOTATION));
            });
            if (i == 10) {
                collect(old.size(), Duration.ofSeconds(2));
                metaspaceAfter10 = metaspaceBytes();
            }
        }
        collect(old.size(), Duration.ofSeconds(20));
        long alive = old.stream().filter(r -> r.get() != null).count();
        long metaspaceAfter50 = metaspaceBytes();
        System.out.printf(
                "scenario 8 (class loaders): %d updates, %d old revisions' class loaders still reachable after GC; "
                        + "metaspace after 10 updates %d kB, after %d updates %d kB%n",
                UPDATES, alive, metaspaceAfter10 / 1024, UPDATES, metaspaceAfter50 / 1024);
        assertEquals("class loaders of old revisions still reachable", 0, alive);
    }
}
