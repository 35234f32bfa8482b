package io.hotsched.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.embedded.standins.StandIn;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OptionsTest {

    @Test
    void noArgumentsMeansEmbeddedWithShell() throws Exception {
        Options o = Options.parse();
        assertFalse(o.noShell());
        assertFalse(o.help());
        assertEquals(Map.of("hotsched.embedded", "true", "hotsched.once", "false"), o.frameworkProperties());
    }

    @Test
    void valuesBothSeparateAndWithEquals() throws Exception {
        Options o = Options.parse(
                "--home", "/opt/h", "--kubeconfig=/k/config", "--no-shell", "--master", "https://api:6443");
        assertEquals(Path.of("/opt/h"), o.home().orElseThrow());
        assertTrue(o.noShell());
        Map<String, String> p = o.frameworkProperties();
        assertEquals(Path.of("/k/config").toAbsolutePath().toString(), p.get("hotsched.kubeconfig"));
        assertEquals("https://api:6443", p.get("hotsched.master"));
        assertEquals("false", p.get("hotsched.embedded"));
    }

    @Test
    void securePortTurnsSecureServingOnWithUpstreamDefaults() throws Exception {
        assertTrue(Options.parse().secureServing().isEmpty());
        SecureServing.Request r =
                Options.parse("--secure-port", "10259").secureServing().orElseThrow();
        assertEquals("0.0.0.0", r.bindAddress());
        assertEquals(10259, r.port());
        assertEquals("/healthz,/readyz,/livez", r.alwaysAllowPaths());
        r = Options.parse("--secure-port=8443", "--bind-address", "10.0.0.5", "--authorization-always-allow-paths=/x*")
                .secureServing()
                .orElseThrow();
        assertEquals("10.0.0.5", r.bindAddress());
        assertEquals("/x*", r.alwaysAllowPaths());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--frobnicate|unknown option '--frobnicate'",
                "--home|option '--home' needs a value",
                "--no-shell=yes|option '--no-shell' takes no value",
                "--master ftp://x|--master 'ftp://x' is not an http:// or https:// URL",
                "--embedded --master http://x|--embedded cannot be combined with --kubeconfig or --master",
                "--config --no-shell|option '--config' needs a value",
                "--no-stand-in kubelet,robot|--no-stand-in: unknown stand-in 'robot' (known: kubelet, koordlet, deployment,"
                        + " replicaset, job, statefulset, daemonset, garbage-collector, persistent-volume, volume-provisioner, resource-claim, disruption)",
                "--no-stand-in job --master http://x|--embedded-port, --cluster-dir and --no-stand-in"
                        + " apply to the embedded API server, not to --kubeconfig or --master",
                "--embedded-port 70000|--embedded-port '70000' is not a port number (0-65535)",
                "--print-kubeconfig --embedded --no-shell|--print-kubeconfig prints the kubeconfig of the instance"
                        + " running from the home folder and exits; it takes no option but --home (not --embedded, --no-shell)",
                "--bind-address 0.0.0.0|--bind-address, --tls-cert-file, --tls-private-key-file and"
                        + " --authorization-always-allow-paths apply to secure serving: give --secure-port too",
                "--secure-port 10259 --tls-cert-file c.pem|--tls-cert-file and --tls-private-key-file go together",
            })
    void badCommandLinesNameTheWord(String line, String message) {
        Options.UsageException e = assertThrows(Options.UsageException.class, () -> Options.parse(line.split(" ")));
        assertEquals(message, e.getMessage());
    }

    @Test
    void standInsAreAllOnUnlessTurnedOff() throws Exception {
        assertEquals(EnumSet.allOf(StandIn.class), Options.parse().standIns());
        Options o = Options.parse("--no-stand-in", "job,daemonset", "--no-stand-in=garbage-collector");
        assertEquals(
                EnumSet.complementOf(EnumSet.of(StandIn.JOB, StandIn.DAEMONSET, StandIn.GARBAGE_COLLECTOR)),
                o.standIns());
        assertTrue(Options.USAGE.contains("--no-stand-in"));
        assertTrue(Options.USAGE.contains(StandIn.names(EnumSet.allOf(StandIn.class))));
    }

    @Test
    void printKubeconfigTakesOnlyAHome() throws Exception {
        Options o = Options.parse("--print-kubeconfig", "--home=/opt/h");
        assertTrue(o.printKubeconfig());
        assertEquals(Path.of("/opt/h"), o.home().orElseThrow());
        assertFalse(Options.parse("--embedded").printKubeconfig());
    }

    @Test
    void apiserverOptions() throws Exception {
        ApiServerOptions o = ApiServerOptions.parse(
                "--port", "6443", "--cluster-dir=/c", "--home", "/h", "--no-stand-in", "kubelet,job");
        assertEquals(6443, o.port());
        assertEquals(Path.of("/c"), o.clusterDir().orElseThrow());
        assertEquals(Path.of("/h"), o.home().orElseThrow());
        assertEquals(EnumSet.complementOf(EnumSet.of(StandIn.KUBELET, StandIn.JOB)), o.standIns());
        assertFalse(o.help());
        ApiServerOptions none = ApiServerOptions.parse();
        assertEquals(0, none.port());
        assertTrue(none.clusterDir().isEmpty());
        assertEquals(EnumSet.allOf(StandIn.class), none.standIns());
        assertTrue(ApiServerOptions.parse("-h").help());
        assertTrue(ApiServerOptions.USAGE.contains(StandIn.names(EnumSet.allOf(StandIn.class))));
        assertTrue(Options.USAGE.contains("hotsched apiserver [--port N] [--cluster-dir DIR]"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--port|option '--port' needs a value",
                "--port x|--port 'x' is not a port number (0-65535)",
                "--port -1|--port '-1' is not a port number (0-65535)",
                "--help=yes|option '--help' takes no value",
                "--no-stand-in robot|--no-stand-in: unknown stand-in 'robot' (known: "
                        + "kubelet, koordlet, deployment, replicaset, job, statefulset, daemonset, garbage-collector,"
                        + " persistent-volume, volume-provisioner, resource-claim, disruption)",
                "--kubeconfig k|unknown option '--kubeconfig' of 'hotsched apiserver'",
            })
    void badApiserverCommandLinesNameTheWord(String line, String message) {
        Options.UsageException e =
                assertThrows(Options.UsageException.class, () -> ApiServerOptions.parse(line.split(" ")));
        assertEquals(message, e.getMessage());
    }

    @Test
    void helpAndVersion() throws Exception {
        assertTrue(Options.parse("--help").help());
        assertTrue(Options.parse("-h").help());
        assertTrue(Options.parse("--version").version());
    }

    @Test
    void usageDocumentsEveryOption() {
        for (String flag : new String[] {
            "--home", "--no-shell", "--config", "--kubeconfig", "--master", "--embedded", "--version", "--help"
        }) {
            assertTrue(Options.USAGE.contains(flag), flag);
        }
    }

    @Test
    void mainExitsTwoOnUnknownFlag() {
        // Main.run does not call System.exit, so the exit code can be checked directly
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        try {
            java.lang.reflect.Constructor<Main> c = Main.class.getDeclaredConstructor(java.io.PrintStream.class);
            c.setAccessible(true);
            int code = c.newInstance(new java.io.PrintStream(buf)).run(new String[] {"--nope"});
            assertEquals(Main.USAGE, code);
            assertTrue(buf.toString().contains("unknown option '--nope'"));
            assertTrue(buf.toString().contains("Usage: hotsched"));
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
