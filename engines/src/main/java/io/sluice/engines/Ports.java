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

    /** A port that was free a moment ago on 127.0.0.1 (tests pick ports this way). */
    public static int free() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
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
