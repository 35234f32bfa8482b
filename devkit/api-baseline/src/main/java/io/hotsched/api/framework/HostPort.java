package io.hotsched.api.framework;

/**
 * A host port a container asks for. An empty IP is normalised to {@code 0.0.0.0} and an empty
 * protocol to {@code TCP}, as upstream does.
 */
public record HostPort(String ip, String protocol, int port) {

    public static final String WILDCARD = "0.0.0.0";

    public HostPort {
        ip = ip == null || ip.isEmpty() ? WILDCARD : ip;
        protocol = protocol == null || protocol.isEmpty() ? "TCP" : protocol;
    }

    /**
     * Whether two ports cannot be used together on one node: same protocol and port, and the same
     * IP or either of them the wildcard.
     */
    public boolean conflictsWith(HostPort other) {
        return port == other.port
                && protocol.equals(other.protocol)
                && (ip.equals(other.ip) || WILDCARD.equals(ip) || WILDCARD.equals(other.ip));
    }
}
