package io.hotsched.kube;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of the API server whose connections can be cut: {@link #cut()} closes every
 * open connection (the scheduler's watches drop) and refuses new ones until {@link #restore()}.
 */
final class CuttableProxy implements AutoCloseable {

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile boolean refusing;
    private final AtomicInteger refused = new AtomicInteger();

    CuttableProxy(int targetPort) throws IOException {
        this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (refusing) {
                    refused.incrementAndGet();
                    client.close();
                    continue;
                }
                Socket upstream = new Socket(target.getAddress(), target.getPort());
                open.add(client);
                open.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                // closed, or the API server refused: the client sees a dropped connection
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(
                () -> {
                    byte[] buf = new byte[16384];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        for (int n; (n = in.read(buf)) >= 0; ) {
                            out.write(buf, 0, n);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // the other side closed
                    } finally {
                        closeQuietly(from);
                        closeQuietly(to);
                    }
                },
                "proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    /** Drops every connection and refuses new ones. */
    void cut() {
        refusing = true;
        for (Socket s : open) {
            closeQuietly(s);
        }
        open.clear();
    }

    /** Connections refused while cut: a client that counts here has noticed it is cut off. */
    int refused() {
        return refused.get();
    }

    void restore() {
        refusing = false;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        cut();
        server.close();
    }
}
