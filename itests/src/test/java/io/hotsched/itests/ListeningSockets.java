package io.hotsched.itests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The TCP sockets a process (and its children) listen on, read from Linux's {@code /proc}: the
 * socket inodes among its file descriptors, matched with the LISTEN rows of {@code /proc/net/tcp}
 * and {@code tcp6}. Asking the process itself would only say what it thinks it opened.
 */
final class ListeningSockets {

    private static final String LISTEN = "0A";

    /** One listening socket: its local address as /proc prints it (hex, network order per word) and port. */
    record Listener(String address, int port) {

        /** 127.0.0.0/8, ::1, or 127.0.0.0/8 mapped into IPv6. */
        boolean loopback() {
            return switch (address.length()) {
                case 8 -> address.endsWith("7F"); // little-endian IPv4: the first octet is the last byte
                case 32 ->
                    address.equals("00000000000000000000000001000000")
                            || (address.startsWith("0000000000000000FFFF0000") && address.endsWith("7F"));
                default -> false;
            };
        }

        @Override
        public String toString() {
            return (loopback() ? "loopback" : address) + ":" + port;
        }
    }

    private ListeningSockets() {}

    static List<Listener> of(ProcessHandle process) throws IOException {
        Set<String> inodes = new HashSet<>();
        for (ProcessHandle p :
                Stream.concat(Stream.of(process), process.descendants()).toList()) {
            Path fds = Path.of("/proc", Long.toString(p.pid()), "fd");
            try (Stream<Path> list = Files.list(fds)) {
                for (Path fd : list.toList()) {
                    try {
                        String target = Files.readSymbolicLink(fd).toString();
                        if (target.startsWith("socket:[")) {
                            inodes.add(target.substring(8, target.length() - 1));
                        }
                    } catch (IOException closedMeanwhile) {
                        // the descriptor went away between listing and reading it
                    }
                }
            }
        }
        List<Listener> listeners = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> rows = Files.readAllLines(Path.of(table));
            for (String row : rows.subList(1, rows.size())) {
                String[] f = row.trim().split("\\s+");
                if (f[3].equals(LISTEN) && inodes.contains(f[9])) {
                    String[] local = f[1].split(":");
                    listeners.add(new Listener(local[0], Integer.parseInt(local[1], 16)));
                }
            }
        }
        return listeners;
    }
}
