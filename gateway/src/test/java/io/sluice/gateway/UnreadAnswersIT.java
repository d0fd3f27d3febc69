package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * A client that pipelines requests answered at once (CORS preflights, 415s) and never reads the
 * answers: the gateway stops reading it once its unsent answers pass the connection's high-water
 * mark, so neither the answers nor the requests behind them pile up in the gateway's memory, and
 * another tenant is served meanwhile.
 */
@ExtendWith(RealEngines.class)
@Timeout(120)
class UnreadAnswersIT {
    private static final String PREFLIGHT = "OPTIONS /api/1/envelope/ HTTP/1.1\r\nHost: gateway\r\nOrigin: https://shop.example\r\n"
            + "Access-Control-Request-Method: POST\r\n\r\n";
    /** What the attacker offers: about 120,000 requests. */
    private static final long OFFERED_BYTES = 16L * 1024 * 1024;
    /**
     * At most this many answers once the gateway holds the connection: those in the kernel's socket buffers (the
     * client's receive buffer, the gateway's send buffer: a few MiB at most on loopback) and the connection's
     * high-water mark. Without back-pressure the gateway answers every request offered.
     */
    private static final long MOST_ANSWERS_WHILE_UNREAD = 40_000;

    @Test
    void aClientThatNeverReadsItsAnswersStopsBeingReadWhileATenantIsServed(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of())) {
            ProjectAdmin.NewProject tenant = gateway.newProject("neighbour");
            ProjectAdmin.NewProject attacker = gateway.newProject("never-reads");
            String unsupported = "POST /api/v1/" + attacker.token() + "/transaction HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer "
                    + attacker.key() + "\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}";
            byte[] chunk = (PREFLIGHT.repeat(50) + unsupported.repeat(50)).getBytes(StandardCharsets.US_ASCII);
            AtomicLong written = new AtomicLong();
            try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
                Thread writer = new Thread(() -> offer(socket, chunk, written), "never-reads");
                writer.setDaemon(true);
                writer.start();

                long answered = awaitNoMoreAnswers(gateway);
                System.out.printf("unread answers: the client wrote %,d bytes, the gateway answered %,d requests, "
                        + "%,d bytes of answers unsent in the gateway%n", written.get(), answered, unsentAnswerBytes(gateway));
                assertTrue(answered <= MOST_ANSWERS_WHILE_UNREAD, "the gateway kept reading a client that reads no answers: "
                        + answered + " requests answered of " + written.get() + " bytes written");
                assertTrue(unsentAnswerBytes(gateway) <= 64 * 1024, "unsent answers stay within the connection's high-water mark");
                assertEquals(200, gateway.post(tenant, "transaction", "{\"transaction\": \"GET /\"}").statusCode());

                RawHttp.Response first = readFirstAnswer(socket);
                assertEquals(200, first.status(), "answers still come in request order: the first was a preflight");
            }
        }
    }

    /**
     * 100 requests pipelined at once: while the first is being published, the gateway reads 16 more behind it and
     * then stops reading; each answer lets one more in. So at most 17 requests hold budget and memory, never 100.
     */
    @Test
    void atMostSixteenRequestsAreReadAheadOfTheOneBeingAnswered(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of()); RawHttp client = new RawHttp(gateway.port())) {
            ProjectAdmin.NewProject project = gateway.newProject("pipelines");
            String path = "/api/v1/" + project.token() + "/transaction";
            AtomicLong inFlight = gateway.gateway.metrics().inFlightRequests();
            client.send(RawHttp.post(path, project.key(), "{\"transaction\": \"GET /\"}").repeat(100));

            long most = 0;
            long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            while (System.nanoTime() < until) {
                most = Math.max(most, inFlight.get());
            }
            System.out.println("pipelining: at most " + most + " of 100 pipelined requests taken on at once");
            assertEquals(17L, most, "the request being published and the 16 read ahead of it");
            for (int i = 0; i < 100; i++) {
                assertEquals(200, client.read().status(), "request " + i + " answered in turn");
            }
        }
    }

    /** Writes the chunk again and again until the offered bytes are written or the gateway closes the connection. */
    private static void offer(Socket socket, byte[] chunk, AtomicLong written) {
        try {
            OutputStream out = socket.getOutputStream();
            while (written.get() < OFFERED_BYTES) {
                out.write(chunk);
                written.addAndGet(chunk.length);
            }
        } catch (IOException closed) {
            // the test closed the socket
        }
    }

    /** The requests answered once their count has not changed for two seconds. */
    private static long awaitNoMoreAnswers(TestGateway gateway) throws InterruptedException {
        long before = -1;
        long now = answered(gateway);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (now != before && System.nanoTime() < deadline) {
            Thread.sleep(2_000);
            before = now;
            now = answered(gateway);
        }
        return now;
    }

    private static long answered(TestGateway gateway) {
        String metrics = gateway.admin("/metrics").body();
        return count(metrics, "sluice_gateway_requests_total\\{endpoint=\"envelope\",status=\"200\"}")
                + count(metrics, "sluice_gateway_requests_total\\{endpoint=\"transaction\",status=\"415\"}");
    }

    private static long unsentAnswerBytes(TestGateway gateway) {
        return count(gateway.admin("/metrics").body(), "sluice_gateway_unsent_answer_bytes");
    }

    private static long count(String metrics, String series) {
        Matcher value = Pattern.compile("(?m)^" + series + " ([0-9.E]+)$").matcher(metrics);
        return value.find() ? (long) Double.parseDouble(value.group(1)) : 0;
    }

    private static RawHttp.Response readFirstAnswer(Socket socket) throws IOException {
        var in = socket.getInputStream();
        StringBuilder statusLine = new StringBuilder();
        for (int b = in.read(); b != '\n' && b != -1; b = in.read()) {
            statusLine.append((char) b);
        }
        return new RawHttp.Response(Integer.parseInt(statusLine.toString().split(" ")[1]), "");
    }
}
