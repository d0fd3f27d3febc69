package io.sluice.engines;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Loopback port helpers: find a free one for tests, or fail clearly when a fixed one is taken. */
public final class Ports {
    private Ports() {
    }

    /** Ports {@link #free(int)} handed out in this JVM: never handed out twice. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    /** A port that was free a moment ago on 127.0.0.1 (tests pick ports this way); see {@link #free(int)}. */
    public static int free() {
        return free(1).get(0);
    }

    /**
     * {@code count} distinct ports that were free a moment ago and that were not handed out before
     * in this JVM. A port picked and closed may be handed out again at once: a test that picks a
     * broker's port and then its controller's could get the same one twice (a cluster once got a
     * broker's port equal to a controller's, and its admin client talked to the controller). So the
     * sockets are held open until all are chosen, and each port is handed out once.
     */
    public static List<Integer> free(int count) {
        List<ServerSocket> held = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        try {
            while (ports.size() < count) {
                if (held.size() >= count + 100) {
                    throw new IllegalStateException("no loopback port left that was not handed out before");
                }
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(socket);
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    ports.add(socket.getLocalPort());
                }
            }
            return List.copyOf(ports);
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
