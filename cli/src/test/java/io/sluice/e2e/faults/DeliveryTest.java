package io.sluice.e2e.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.sluice.engines.Ports;

/** What FaultsIT relies on: Delivery tells a refused connection from a request sent and never answered. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class DeliveryTest {
    private static final String ID = "0123456789abcdef0123456789abcdef";

    @Test
    void aConnectionRefusedIsCountedAsNotSent() {
        Delivery delivery = new Delivery();
        assertEquals(Delivery.NOT_SENT, delivery.send(Ports.free(), "token", "slk_key", ID));
        assertEquals(Set.of(ID), delivery.notSent);
        assertEquals(Set.of(), delivery.unanswered);
    }

    @Test
    void aRequestReadAndDroppedWithoutAnAnswerIsCountedAsUnanswered() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            Thread dropper = serve(server, socket -> {
                readHead(socket); // the request arrived ...
            }); // ... and the connection closes without an answer
            Delivery delivery = new Delivery();
            assertEquals(Delivery.NO_ANSWER, delivery.send(server.getLocalPort(), "token", "slk_key", ID));
            assertEquals(Set.of(ID), delivery.unanswered);
            assertEquals(Set.of(), delivery.notSent);
            assertEquals(Set.of(), delivery.acknowledged);
            dropper.join(10_000);
        }
    }

    @Test
    void aRefusalIsRecordedWithItsErrorCodeAndRetryAfter() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            String body = "{\"error\": \"shutting_down\", \"message\": \"retry\"}";
            Thread refuser = serve(server, socket -> {
                readHead(socket);
                write(socket, "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body);
            });
            Delivery delivery = new Delivery();
            assertEquals(503, delivery.send(server.getLocalPort(), "token", "slk_key", ID));
            assertEquals(Set.of("503 shutting_down Retry-After: 1"), delivery.refused.keySet());
            assertEquals(1, delivery.refusedCount());
            assertEquals(ID, delivery.refusals.peek().eventId());
            refuser.join(10_000);
        }
    }

    private static Thread serve(ServerSocket server, Consumer<Socket> handler) {
        Thread thread = new Thread(() -> {
            try (Socket socket = server.accept()) {
                handler.accept(socket);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        thread.start();
        return thread;
    }

    /** Reads up to the end of the request head (the body is small and follows; it is not needed). */
    private static void readHead(Socket socket) {
        try {
            InputStream in = socket.getInputStream();
            StringBuilder head = new StringBuilder();
            int b;
            while (!head.toString().endsWith("\r\n\r\n") && (b = in.read()) != -1) {
                head.append((char) b);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void write(Socket socket, String text) {
        try {
            OutputStream out = socket.getOutputStream();
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
