package io.hotsched.core.osgi;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.SynchronousBundleListener;
import org.osgi.framework.wiring.BundleWiring;

/**
 * Finds the threads a bundle started and left running when it stopped. One JVM cannot stop them
 * (there is no safe {@code Thread.stop}); they keep the bundle's class loader, and every class
 * and object it reaches, in memory, and go on using CPU. What is reported: threads that were not
 * alive when the bundle started, are still alive {@code graceMillis} after it stopped, and that
 * the bundle owns: the thread's class or its context class loader is the bundle's, or its stack
 * runs a class the bundle defines (a lambda or Runnable of the bundle). Not found: an idle pool
 * thread the bundle created with a JDK thread factory (its stack and loaders are the JDK's). A
 * stack names classes, not their loaders: a bundle that holds a class of the same name as the
 * one a thread runs (two bundles embedding one library) is named too.
 */
public final class BundleThreads implements SynchronousBundleListener, AutoCloseable {

    private final Map<Long, Set<Long>> aliveAtStart = new ConcurrentHashMap<>();
    private final Map<String, List<WeakReference<Thread>>> left = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private final long graceMillis;
    private final Consumer<String> report;

    /** {@code report} gets one line per stopped bundle that left threads running. */
    public BundleThreads(long graceMillis, Consumer<String> report) {
        this.graceMillis = graceMillis;
        this.report = report;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hotsched-bundle-threads");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void bundleChanged(BundleEvent event) {
        Bundle b = event.getBundle();
        if (event.getType() == BundleEvent.STARTING) {
            aliveAtStart.put(b.getBundleId(), threadIds());
        } else if (event.getType() == BundleEvent.STOPPED) {
            stopped(b, aliveAtStart.remove(b.getBundleId()));
        }
    }

    /** While the bundle is still resolved (its class loader answers): the candidates, checked again after the grace. */
    private void stopped(Bundle b, Set<Long> before) {
        BundleWiring wiring = b.adapt(BundleWiring.class);
        ClassLoader loader = wiring == null ? null : wiring.getClassLoader();
        if (loader == null) {
            return;
        }
        List<WeakReference<Thread>> owned = new ArrayList<>();
        Map<String, Boolean> defined = new HashMap<>();
        Thread.getAllStackTraces().forEach((t, stack) -> {
            if ((before == null || !before.contains(t.getId())) && owns(loader, t, stack, defined)) {
                owned.add(new WeakReference<>(t));
            }
        });
        if (owned.isEmpty()) {
            return;
        }
        String name = b.getSymbolicName() + " " + b.getVersion();
        timer.schedule(() -> recheck(name, b.getBundleId(), owned), graceMillis, TimeUnit.MILLISECONDS);
    }

    private void recheck(String bundle, long id, List<WeakReference<Thread>> owned) {
        List<String> names = names(owned);
        if (names.isEmpty()) {
            return;
        }
        left.put(bundle, owned);
        report.accept("Bundle " + bundle + " (id " + id + ") stopped " + graceMillis + "ms ago but " + names.size()
                + " thread(s) it started still run: " + String.join(", ", names)
                + ". They keep its classes in memory and may use CPU until the JVM ends; "
                + "the bundle should end them when it stops.");
    }

    /** Per stopped bundle ({@code name version}), the names of the threads it left that are still alive. */
    public Map<String, List<String>> stillRunning() {
        Map<String, List<String>> out = new TreeMap<>();
        left.forEach((bundle, threads) -> {
            List<String> names = names(threads);
            if (names.isEmpty()) {
                left.remove(bundle, threads);
            } else {
                out.put(bundle, names);
            }
        });
        return out;
    }

    private static List<String> names(List<WeakReference<Thread>> threads) {
        List<String> names = new ArrayList<>();
        for (WeakReference<Thread> r : threads) {
            Thread t = r.get();
            if (t != null && t.isAlive()) {
                names.add(t.getName());
            }
        }
        return names;
    }

    static boolean owns(ClassLoader loader, Thread t, StackTraceElement[] stack, Map<String, Boolean> defined) {
        if (t.getClass().getClassLoader() == loader || t.getContextClassLoader() == loader) {
            return true;
        }
        for (StackTraceElement e : stack) {
            if (defined.computeIfAbsent(e.getClassName(), n -> definedBy(loader, n))) {
                return true;
            }
        }
        return false;
    }

    private static boolean definedBy(ClassLoader loader, String className) {
        if (className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.")) {
            return false;
        }
        try {
            return Class.forName(className, false, loader).getClassLoader() == loader;
        } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
            return false;
        }
    }

    private static Set<Long> threadIds() {
        Set<Long> ids = new HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            ids.add(t.getId());
        }
        return ids;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
