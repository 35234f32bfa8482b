package io.hotsched.embedded;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Waitable;
import io.hotsched.embedded.standins.StandIn;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The tests' embedded server on a free port, with its nodes and stand-ins. As a static
 * {@code @RegisterExtension} field it serves a whole test class, as an instance field one test;
 * it can also be started and closed by hand.
 */
public final class ApiServer
        implements AutoCloseable, BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    private final boolean indexed;
    private final Map<String, String> nodes = new LinkedHashMap<>();
    private Set<StandIn> standIns = Set.of();
    private EmbeddedApiServer server;
    private boolean perTest;

    public ApiServer() {
        this(false);
    }

    public ApiServer(boolean indexed) {
        this.indexed = indexed;
    }

    /** Nodes to create on start, each with its name as its {@code kubernetes.io/hostname}. */
    public ApiServer withNodes(String... names) {
        for (String n : names) {
            nodes.put(n, n);
        }
        return this;
    }

    /** A node to create on start whose hostname label differs from its name. */
    public ApiServer withNode(String name, String hostname) {
        nodes.put(name, hostname);
        return this;
    }

    public ApiServer withStandIns(Set<StandIn> on) {
        standIns = on;
        return this;
    }

    public ApiServer start() throws IOException {
        server = new EmbeddedApiServer(indexed).start(0);
        nodes.forEach((name, hostname) ->
                client().nodes().resource(TestObjects.node(name, hostname)).create());
        if (!standIns.isEmpty()) {
            server.startStandIns(standIns);
        }
        return this;
    }

    public EmbeddedApiServer server() {
        return server;
    }

    public KubernetesClient client() {
        return server.client();
    }

    /** The Deployment {@code name} of the default namespace, or null. */
    public io.fabric8.kubernetes.api.model.apps.Deployment deployment(String name) {
        return client().apps()
                .deployments()
                .inNamespace("default")
                .withName(name)
                .get();
    }

    /** Writes the server's kubeconfig into {@code dir} for kubectl. */
    public Path kubeconfig(Path dir) throws IOException {
        return Files.writeString(dir.resolve("kubeconfig"), server.kubeconfig());
    }

    /** Waits until the pods of {@code ns} with label app={@code app} satisfy {@code test}; returns them. */
    public List<Pod> podsUntil(String ns, String app, Predicate<List<Pod>> test) throws Exception {
        return client().pods()
                .inNamespace(ns)
                .withLabel("app", app)
                .informOnCondition(test)
                .get(30, TimeUnit.SECONDS);
    }

    /** Waits (30 s at most) until {@code object} satisfies {@code test}; returns it. */
    public static <T> T until(Waitable<T, T> object, Predicate<T> test) {
        return object.waitUntilCondition(test, 30, TimeUnit.SECONDS);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        // a static field was started for the class already; an instance field starts for each test
        if (server == null) {
            perTest = true;
            start();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (perTest) {
            close();
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
