package io.hotsched.devkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.testkit.Folders;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plugin author's first hour: {@code archetype:generate}, {@code mvn verify} in the generated
 * project (each a Maven run of its own, offline, resolving hotsched's artifacts from the
 * repository this build filled; verify runs the generated tests, the one that boots the jar in
 * Felix included), then the jar dropped into a running distribution's {@code deploy/}, where its
 * plugin places the pods of the profile that enables it.
 */
class ArchetypeIT {

    private static final String PLUGIN = "CpuHeadroom";

    @TempDir
    Path work;

    private Process hotsched;
    private final List<String> output = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        if (hotsched != null && hotsched.isAlive()) {
            hotsched.destroy();
            if (!hotsched.waitFor(20, TimeUnit.SECONDS)) {
                hotsched.destroyForcibly();
            }
        }
    }

    @Test
    void aGeneratedPluginIsBuiltAndServesFromDeploy() throws Exception {
        Path settings = settings();
        NestedMaven.Result generated = NestedMaven.run(
                work,
                "-s",
                settings.toString(),
                "org.apache.maven.plugins:maven-archetype-plugin:" + System.getProperty("archetype.version")
                        + ":generate",
                "-DinteractiveMode=false",
                "-DarchetypeGroupId=io.hotsched",
                "-DarchetypeArtifactId=hotsched-plugin-archetype",
                "-DarchetypeVersion=" + System.getProperty("hotsched.version"),
                "-DgroupId=com.example.sched",
                "-DartifactId=headroom",
                "-Dversion=1.0.0",
                "-Dpackage=com.example.sched.headroom",
                "-DpluginName=" + PLUGIN);
        assertEquals(0, generated.code(), generated.output());
        Path project = work.resolve("headroom");
        assertTrue(Files.isRegularFile(
                project.resolve("src/main/java/com/example/sched/headroom/CpuHeadroomFactory.java")));
        String readme = Files.readString(project.resolve("README.md"));
        assertTrue(
                readme.contains("\n## Run it in hotsched\n") && readme.contains("deploy/headroom-1.0.0.jar"), readme);

        NestedMaven.Result built = NestedMaven.run(project, "-s", settings.toString(), "verify");
        assertEquals(0, built.code(), built.output());
        // the generated tests ran: the tables, through the test kit's harness, and (after package)
        // the jar in a real platform in Felix
        for (String test : List.of("ArgsTest", "PluginTest", "SchedulingTest", "FelixTest")) {
            assertTrue(
                    built.output()
                            .matches(
                                    "(?s).*Tests run: [1-9]\\d*, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: [^\\n]*"
                                            + " in com\\.example\\.sched\\.headroom\\." + PLUGIN + test + "\\n.*"),
                    test + " did not run:\n" + built.output());
        }
        Path jar = project.resolve("target/headroom-1.0.0.jar");
        assertTrue(Files.isRegularFile(jar), built.output());
        try (JarFile bundle = new JarFile(jar.toFile())) {
            String imports = bundle.getManifest().getMainAttributes().getValue("Import-Package");
            // any API of the same major version serves it
            assertTrue(imports.matches(".*io\\.hotsched\\.api\\.framework;version=\"\\[1\\.\\d+,2\\)\".*"), imports);
            assertTrue(
                    bundle.getEntry("OSGI-INF/com.example.sched.headroom.CpuHeadroomFactory.xml") != null,
                    "no component descriptor in " + jar);
        }

        Path home = Folders.copyTree(Path.of(System.getProperty("hotsched.dist")), work.resolve("hotsched"));
        String profile = Files.readString(project.resolve("scheduler.yaml"));
        Files.writeString(home.resolve("etc/scheduler.yaml"), """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                profiles:
                - schedulerName: default-scheduler
                """ + profile);
        Path cluster = Files.createDirectories(work.resolve("cluster"));
        Files.writeString(
                cluster.resolve("cluster.yaml"),
                node("small", "2") + node("big", "8") + pod("web", "500m") + pod("huge", "7800m"));

        start(home, cluster);
        awaitLine("hotsched: started in");
        Path tmp = home.resolve("deploy/.headroom.jar.tmp");
        Files.copy(jar, tmp);
        Files.move(tmp, home.resolve("deploy/headroom-1.0.0.jar"), StandardCopyOption.ATOMIC_MOVE);

        // pack (weight 5) keeps small busy although the default plugins would spread to big; huge
        // would leave big with less than the 500m of headroom
        watchPods(
                home,
                List.of(
                        Pattern.compile("\"name\"\\s*:\\s*\"web\".*\"nodeName\"\\s*:\\s*\"small\""),
                        Pattern.compile("\"name\"\\s*:\\s*\"huge\".*node would keep less than 500m cpu free")));
    }

    /** Nested Maven settings: hotsched's artifacts from the repository this build filled. */
    private Path settings() throws IOException {
        String url = Path.of(System.getProperty("hotsched.kit.repo")).toUri().toString();
        String repo = """
                <id>hotsched-kit</id><url>%s</url>
                <releases><enabled>true</enabled></releases>
                <snapshots><enabled>true</enabled><updatePolicy>always</updatePolicy></snapshots>
                """.formatted(url);
        return Files.writeString(work.resolve("settings.xml"), """
                <settings>
                  <profiles><profile><id>hotsched-kit</id>
                    <repositories><repository>%s</repository></repositories>
                    <pluginRepositories><pluginRepository>%s</pluginRepository></pluginRepositories>
                  </profile></profiles>
                  <activeProfiles><activeProfile>hotsched-kit</activeProfile></activeProfiles>
                </settings>
                """.formatted(repo, repo));
    }

    private void start(Path home, Path cluster) throws IOException {
        hotsched = new ProcessBuilder(
                        home.resolve("bin/hotsched").toString(), "--no-shell", "--cluster-dir", cluster.toString())
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        Thread reader = new Thread(() -> {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(hotsched.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    output.add(line);
                    System.out.println("  | " + line);
                    synchronized (output) {
                        output.notifyAll();
                    }
                }
            } catch (IOException e) {
                // the process ended
            } finally {
                synchronized (output) {
                    output.notifyAll();
                }
            }
        });
        reader.setDaemon(true);
        reader.start();
    }

    /** Waits for the reader thread to add a line containing {@code fragment} (it wakes this on every line). */
    private void awaitLine(String fragment) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        synchronized (output) {
            while (output.stream().noneMatch(l -> l.contains(fragment)) && hotsched.isAlive()) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    break;
                }
                output.wait(left);
            }
        }
        assertTrue(
                output.stream().anyMatch(l -> l.contains(fragment)),
                "no line containing '" + fragment + "':\n" + String.join("\n", output));
    }

    /**
     * Watches the pods of namespace default through the embedded API server until each pattern
     * has matched an event (at most a minute).
     */
    private void watchPods(Path home, List<Pattern> wanted) throws Exception {
        Matcher server =
                Pattern.compile("server:\\s*(\\S+)").matcher(Files.readString(home.resolve("data/kubeconfig")));
        assertTrue(server.find(), "no server in data/kubeconfig");
        HttpRequest watch = HttpRequest.newBuilder(
                        URI.create(server.group(1) + "/api/v1/namespaces/default/pods?watch=true"))
                .build();
        List<Pattern> missing = new CopyOnWriteArrayList<>(wanted);
        List<String> seen = new CopyOnWriteArrayList<>();
        HttpClient http = HttpClient.newHttpClient();
        CompletableFuture<Void> done = http.sendAsync(watch, HttpResponse.BodyHandlers.ofLines())
                .thenAccept(response -> {
                    try (Stream<String> lines = response.body()) {
                        // stops at the last match, without waiting for another event
                        Iterator<String> it = lines.iterator();
                        while (!missing.isEmpty() && it.hasNext()) {
                            String l = it.next();
                            seen.add(l);
                            missing.removeIf(p -> p.matcher(l).find());
                        }
                    }
                });
        try {
            done.get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("not seen within 60 s: " + missing + "\nevents:\n" + String.join("\n", seen)
                    + "\nhotsched:\n" + String.join("\n", output));
        }
        assertTrue(missing.isEmpty(), "the watch ended before " + missing + ":\n" + String.join("\n", seen));
    }

    private static String node(String name, String cpu) {
        return """
                apiVersion: v1
                kind: Node
                metadata:
                  name: %1$s
                  labels: {kubernetes.io/hostname: %1$s}
                status:
                  capacity: {cpu: "%2$s", memory: 16Gi, pods: "110"}
                  allocatable: {cpu: "%2$s", memory: 16Gi, pods: "110"}
                  conditions: [{type: Ready, status: "True"}]
                ---
                """.formatted(name, cpu);
    }

    private static String pod(String name, String cpu) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: default}
                spec:
                  schedulerName: headroom
                  containers:
                  - name: app
                    image: registry.example/app:1
                    resources: {requests: {cpu: %s}}
                ---
                """.formatted(name, cpu);
    }
}
