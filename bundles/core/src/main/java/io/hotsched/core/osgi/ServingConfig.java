package io.hotsched.core.osgi;

import java.net.InetSocketAddress;
import java.util.Hashtable;
import java.util.function.UnaryOperator;

/**
 * The configuration of the platform's HTTP service (Felix HTTP Jetty, PID
 * {@value #PID}) that serves the scheduler's endpoints: plain HTTP on {@code metricsAddress}
 * (loopback by default), or, when the command line asks for secure serving, HTTPS on the bind
 * address and secure port only, as kube-scheduler serves them in a cluster.
 */
final class ServingConfig {

    static final String PID = "org.apache.felix.http";

    /** Secure serving as the launcher prepared it: where, and the PKCS#12 key store of the certificate. */
    record Secure(String bindAddress, int port, String keystore, String password) {

        /** From the framework properties the launcher sets for {@code --secure-port}; null when it is off. */
        static Secure fromProperties(UnaryOperator<String> property) {
            String port = property.apply("hotsched.securePort");
            if (port == null || port.isBlank()) {
                return null;
            }
            return new Secure(
                    property.apply("hotsched.bindAddress"),
                    Integer.parseInt(port.trim()),
                    property.apply("hotsched.tlsKeystore"),
                    property.apply("hotsched.tlsKeystorePassword"));
        }
    }

    private ServingConfig() {}

    /**
     * @param metricsAddress host:port for plain HTTP, empty for none (ignored with {@code secure})
     * @param secure null for plain HTTP
     * @throws IllegalArgumentException naming the value when {@code metricsAddress} is not host:port
     */
    static Hashtable<String, Object> of(String metricsAddress, Secure secure) {
        Hashtable<String, Object> c = new Hashtable<>();
        c.put("org.apache.felix.http.jetty.sendServerHeader", false);
        if (secure != null) {
            c.put("org.apache.felix.http.enable", false);
            c.put("org.apache.felix.https.enable", true);
            c.put("org.apache.felix.http.host", secure.bindAddress());
            c.put("org.osgi.service.http.port.secure", secure.port());
            c.put("org.apache.felix.https.keystore", secure.keystore());
            c.put("org.apache.felix.https.keystore.type", "PKCS12");
            c.put("org.apache.felix.https.keystore.password", secure.password());
            c.put("org.apache.felix.https.keystore.key.password", secure.password());
            return c;
        }
        c.put("org.apache.felix.https.enable", false);
        String a = metricsAddress == null ? "" : metricsAddress.trim();
        if (a.isEmpty()) {
            c.put("org.apache.felix.http.enable", false);
            return c;
        }
        InetSocketAddress at = parse(a);
        c.put("org.apache.felix.http.enable", true);
        c.put("org.apache.felix.http.host", at.getHostString());
        c.put("org.osgi.service.http.port", at.getPort());
        return c;
    }

    static InetSocketAddress parse(String address) {
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(
                    "metricsAddress \"" + address + "\" is not host:port (e.g. 127.0.0.1:10259, or empty for none)");
        }
        String host = address.substring(0, colon);
        try {
            int port = Integer.parseInt(address.substring(colon + 1));
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return InetSocketAddress.createUnresolved(host.isEmpty() ? "0.0.0.0" : host, port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "metricsAddress \"" + address + "\": the port must be a number from 0 to 65535");
        }
    }
}
