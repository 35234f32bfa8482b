package io.hotsched.itests;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Starts the distribution's embedded API server in the test JVM, outside the OSGi container, the
 * way the launcher does; the Kubernetes bundle inside the container reaches it over HTTP. Its jars
 * (the distribution's lib/) get a class loader of their own: on the test class path their
 * fabric8 service files would be found by the container's bundles too and break their client.
 */
final class ApiServerOutside {

    private ApiServerOutside() {}

    /**
     * A fresh server (indexed store, as shipped) on a free port, closed when the JVM exits, with
     * the controller stand-ins named (their {@code StandIn} constant names); its URL.
     */
    static String start(String... standIns) throws IOException {
        Path lib = Path.of(System.getProperty("hotsched.dist")).resolve("lib");
        List<Path> jars;
        try (Stream<Path> files = Files.list(lib)) {
            jars = files.filter(p -> p.toString().endsWith(".jar")
                            && !p.getFileName().toString().startsWith("io.hotsched.launcher"))
                    .toList();
        }
        URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++) {
            urls[i] = jars.get(i).toUri().toURL();
        }
        ClassLoader loader = new URLClassLoader("embedded-api-server", urls, ClassLoader.getPlatformClassLoader());
        Thread current = Thread.currentThread();
        ClassLoader before = current.getContextClassLoader();
        current.setContextClassLoader(loader);
        try {
            Class<?> type = loader.loadClass("io.hotsched.embedded.EmbeddedApiServer");
            Object server = type.getConstructor().newInstance();
            type.getMethod("start", int.class).invoke(server, 0);
            // the definitions hotsched reads itself, as the launcher creates them (plugin delivery)
            Path crd = Path.of(System.getProperty("hotsched.dist"), "etc", "crds", "schedulerplugins.hotsched.io.yaml");
            type.getMethod("create", List.class).invoke(server, List.of(crd));
            if (standIns.length > 0) {
                startStandIns(loader, type, server, standIns);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    ((AutoCloseable) server).close();
                } catch (Exception e) {
                    // the JVM is exiting
                }
            }));
            return (String) type.getMethod("url").invoke(server);
        } catch (ReflectiveOperationException e) {
            throw new IOException("cannot start the embedded API server from " + lib + ": " + e, e);
        } finally {
            current.setContextClassLoader(before);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void startStandIns(ClassLoader loader, Class<?> server, Object instance, String[] names)
            throws ReflectiveOperationException {
        Class<? extends Enum> kind = (Class<? extends Enum>) loader.loadClass("io.hotsched.embedded.standins.StandIn");
        java.util.Set on = java.util.EnumSet.noneOf(kind);
        for (String name : names) {
            on.add(Enum.valueOf(kind, name));
        }
        server.getMethod("startStandIns", java.util.Set.class).invoke(instance, on);
    }
}
