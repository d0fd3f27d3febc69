package io.sluice.engines;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Loopback port helpers: find a free one for tests, or fail clearly when a fixed one is taken. */
public final class Ports {
    private Ports() {
    }

    /** Ports {@link #free()} handed out in this JVM: never handed out twice. */
    private static final java.util.Set<Integer> HANDED_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * A port that was free a moment ago on 127.0.0.1 (tests pick ports this way), and that this
     * method has not handed out before in this JVM: a port picked and closed may be handed out
     * again at once, and a test that picks a broker's port and then its controller's would get
     * the same one twice.
     */
    public static int free() {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("no free loopback port", e);
            }
        }
        throw new IllegalStateException("no loopback port left that was not handed out before");
    }

    /**
     * {@code count} distinct ports that were free a moment ago: the sockets are held open until
     * all are chosen, as one picked and closed may be handed out again at once (a cluster once got
     * a broker's port equal to a controller's, and its admin client talked to the controller).
     */
    public static java.util.List<Integer> free(int count) {
        java.util.List<ServerSocket> held = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                held.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            }
            return held.stream().map(ServerSocket::getLocalPort).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback ports", e);
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // only held to keep the port from being handed out twice
                }
            }
        }
    }

    /** Throws {@link PortTakenException} naming the component when the port is in use. */
    public static void requireFree(int port, String component) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw new PortTakenException(component, port);
        }
    }

    /** A fixed port that something else already listens on. */
    public static final class PortTakenException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public PortTakenException(String component, int port) {
            super("port 127.0.0.1:" + port + " for " + component + " is already in use "
                    + "(another Sluice running? find it with: ss -ltnp 'sport = :" + port + "')");
        }
    }
}
