package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.github.luben.zstd.Zstd;

import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * What attackers and broken clients send: each gets a clear 4xx, and the next tenant is served
 * right after, on the same gateway.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class HostileInputIT {
    static TestGateway gateway;
    static ProjectAdmin.NewProject attacker;
    static ProjectAdmin.NewProject bystander;

    @BeforeAll
    static void start(Engines engines) throws Exception {
        gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_RECEIVE_TIMEOUT", "1s",
                "SLUICE_GATEWAY_MAX_CONNECTIONS", "500", "SLUICE_GATEWAY_IDLE_TIMEOUT", "2s"));
        attacker = gateway.newProject("attacker");
        bystander = gateway.newProject("bystander");
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    static Stream<Arguments> hostileRequests() throws Exception {
        return Stream.of(
                Arguments.of("truncated JSON", body("{\"transaction\": \"GET /", null), 400),
                Arguments.of("nesting 100,000 levels deep", body("{\"transaction\": \"GET /\", \"x\": " + "[".repeat(100_000)
                        + "]".repeat(100_000) + "}", null), 400),
                Arguments.of("a megabyte string", body("{\"transaction\": \"" + "A".repeat(1_100_000) + "\"}", null), 413),
                Arguments.of("invalid UTF-8", bytes(new byte[] {'{', '"', 't', 'r', 'a', 'n', 's', 'a', 'c', 't', 'i', 'o', 'n', '"',
                        ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'}, null), 400),
                Arguments.of("duplicate keys", body("{\"transaction\": \"GET /\", \"transaction\": \"POST /\"}", null), 400),
                Arguments.of("a status out of range", body("{\"transaction\": \"GET /\", \"tags\": {\"http.status_code\": 1e400}}", null), 400),
                Arguments.of("a time out of range", body("{\"transaction\": \"GET /\", \"timestamp\": 1e309}", null), 400),
                Arguments.of("a deflate bomb", bytes(deflate(new byte[50 << 20]), "deflate"), 413),
                Arguments.of("a zstd bomb", bytes(Zstd.compress(new byte[50 << 20]), "zstd"), 413),
                Arguments.of("a brotli bomb", bytes(HostileInputIT.class.getResourceAsStream("/zeros-100MiB.br").readAllBytes(), "br"), 413),
                Arguments.of("random bytes as the body", bytes(random(4096), null), 400),
                Arguments.of("many headers", raw("POST /api/v1/t/transaction HTTP/1.1\r\nHost: x\r\n"
                        + "X-H: v\r\n".repeat(3_000) + "\r\n"), 431),
                Arguments.of("random bytes instead of HTTP", rawBytes(random(2048)), 400),
                Arguments.of("a body shorter than Content-Length", raw("POST /api/v1/" + "%TOKEN%" + "/transaction HTTP/1.1\r\n"
                        + "Host: x\r\nAuthorization: Bearer %KEY%\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{}"), 408));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileRequests")
    void getsAClearRefusalAndTheNextTenantIsServed(String what, byte[] request, int expectedStatus) throws Exception {
        byte[] filled = new String(request, StandardCharsets.ISO_8859_1).replace("%TOKEN%", attacker.token())
                .replace("%KEY%", attacker.key()).getBytes(StandardCharsets.ISO_8859_1);
        try (RawHttp http = new RawHttp(gateway.port())) {
            http.sendBytes(filled);
            RawHttp.Response response = http.read();
            assertEquals(expectedStatus, response.status(), what + ": " + response.body());
            assertTrue(response.body().startsWith("{\"error\":\""), what + ": " + response.body());
        }
        assertEquals(200, gateway.post(bystander, "transaction", "{\"transaction\": \"GET /\"}").statusCode());
    }

    @Test
    void aBodyLongerThanContentLengthIsTheNextRequestAndRefusedAsSuch() throws Exception {
        try (RawHttp http = new RawHttp(gateway.port())) {
            String body = "{\"transaction\": \"GET /\"}";
            http.send(RawHttp.post("/api/v1/" + attacker.token() + "/transaction", attacker.key(), body) + "GARBAGE AFTER THE BODY\r\n\r\n");
            assertEquals(200, http.read().status(), "the declared body is one valid request");
            assertEquals(400, http.read().status(), "what follows is not a request");
        }
    }

    @Test
    void hundredsOfIdleConnectionsNeitherStopServiceNorStay() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 450; i++) {
                idle.add(new Socket("127.0.0.1", gateway.port()));
            }
            assertEquals(200, gateway.post(bystander, "transaction", "{\"transaction\": \"GET /\"}").statusCode());
            Thread.sleep(3_000); // the idle timeout (2 s) closes them
            int closedByServer = 0;
            for (Socket socket : idle) {
                socket.setSoTimeout(2_000);
                if (socket.getInputStream().read() == -1) {
                    closedByServer++;
                }
            }
            assertEquals(450, closedByServer);
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
    }

    private static byte[] body(String json, String encoding) {
        return bytes(json.getBytes(StandardCharsets.UTF_8), encoding);
    }

    /** A full request of the attacker's project with this body (and Content-Encoding). */
    private static byte[] bytes(byte[] body, String encoding) {
        String head = "POST /api/v1/%TOKEN%/transaction HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %KEY%\r\n"
                + "Content-Type: application/json\r\n" + (encoding == null ? "" : "Content-Encoding: " + encoding + "\r\n")
                + "Content-Length: " + body.length + "\r\n\r\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static byte[] raw(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] rawBytes(byte[] bytes) {
        bytes[0] = 'X'; // not a method, whatever else follows
        return bytes;
    }

    private static byte[] random(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    private static byte[] deflate(byte[] data) throws java.io.IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeflaterOutputStream deflate = new DeflaterOutputStream(out, new Deflater(Deflater.BEST_COMPRESSION))) {
            deflate.write(data);
        }
        return out.toByteArray();
    }
}
