package io.sluice.gateway.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.gateway.admit.Authenticator;
import io.sluice.gateway.admit.FailedAuthLimiter;
import io.sluice.gateway.admit.Gate;
import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.admit.QuotaLimiter;
import io.sluice.gateway.admit.TrustedProxies;
import io.sluice.gateway.decompress.BodyDecoder;
import io.sluice.gateway.ops.GatewayMetrics;
import io.sluice.gateway.otlp.ExportReader;
import io.sluice.gateway.publish.TestOutcomes;
import io.sluice.gateway.validate.EventValidator;
import io.sluice.projects.Project;
import io.sluice.projects.ProjectKey;
import io.sluice.projects.Secrets;

/** A request refused while its body arrives (no size declared) is answered as its head asked, like one refused from its head. */
class RefusedWhileReceivingTest {
    private static final int OTLP_LIMIT = 1_000;
    private final String key = Secrets.newKey();
    private final Project project = new Project(Secrets.newToken(), "tenant", false, List.of(ProjectKey.of("k1", key, null)),
            Instant.EPOCH);
    private final Gate gate = new Gate(new Authenticator(BodiesReadOnWorkersTest.lookup(project), Clock.systemUTC()),
            new FailedAuthLimiter(60, 10), TrustedProxies.NONE, new QuotaLimiter(1.0),
            new InFlightBudget(64 << 20, 64 << 20, new AtomicLong()), new InFlightBudget(8 << 20, 1 << 20, new AtomicLong()),
            1 << 20, 32 << 20, OTLP_LIMIT);
    private final GatewayMetrics metrics = new GatewayMetrics();
    private final GatewayServices services = new GatewayServices(gate, new BodyDecoder(1 << 20),
            new EventValidator(Duration.ofDays(3650)),
            BodiesReadOnWorkersTest.publisher(new MockProducer<>(BodiesReadOnWorkersTest.cluster(), true, null,
                    new ByteArraySerializer(), new ByteArraySerializer())),
            TestOutcomes.to(new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer())), metrics,
            Clock.systemUTC(), new AtomicBoolean(), new BodyDecoder(32 << 20), null, null, new ExportReader(10_000),
            new BodyDecoder(OTLP_LIMIT));
    private final EmbeddedChannel connection = BodiesReadOnWorkersTest.connection(services);

    @AfterEach
    void close() {
        connection.finishAndReleaseAll();
        services.outcomes().close();
        metrics.close();
    }

    @Test
    void aProtobufExportThatGrowsPastItsLimitIsRefusedInProtobuf() {
        String answer = sendChunked("application/x-protobuf", OTLP_LIMIT + 1);

        assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
        assertTrue(answer.contains("content-type: application/x-protobuf\r\n"), answer);
    }

    @Test
    void aProtobufExportDeclaredPastItsLimitIsRefusedInProtobuf() {
        String head = "POST /api/v1/" + project.token() + "/otlp/v1/traces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/x-protobuf\r\nContent-Length: " + (OTLP_LIMIT + 1) + "\r\n\r\n";
        connection.writeInbound(Unpooled.wrappedBuffer(head.getBytes(StandardCharsets.US_ASCII)));
        connection.runPendingTasks();
        String answer = BodiesReadOnWorkersTest.written(connection);

        assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
        assertTrue(answer.contains("content-type: application/x-protobuf\r\n"), answer);
    }

    /**
     * What arrived of a body refused on its way is freed with the refusal, not when the connection
     * closes: the budget gave those bytes back, so memory held until the close would be outside it.
     */
    @Test
    void theBodyReceivedBeforeARefusalIsFreedWhileTheConnectionIsStillOpen() {
        String head = "POST /api/v1/" + project.token() + "/otlp/v1/traces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/x-protobuf\r\nTransfer-Encoding: chunked\r\n\r\n";
        ByteBuf firstPart = Unpooled.wrappedBuffer((head + Integer.toHexString(600) + "\r\n" + "x".repeat(600) + "\r\n")
                .getBytes(StandardCharsets.US_ASCII)); // one array, so the decoder takes slices of it
        connection.writeInbound(firstPart);
        connection.runPendingTasks();
        assertEquals(1, firstPart.refCnt(), "held while the body is received");

        connection.writeInbound(Unpooled.wrappedBuffer((Integer.toHexString(600) + "\r\n").getBytes(StandardCharsets.US_ASCII),
                new byte[600], "\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
        connection.runPendingTasks();

        assertTrue(BodiesReadOnWorkersTest.written(connection).startsWith("HTTP/1.1 413"));
        assertTrue(connection.isOpen(), "the connection lingers after the refusal");
        assertEquals(0, firstPart.refCnt(), "the refused body's first part is freed");
    }

    /** A traces export of {@code bytes} zero bytes in one chunk, its size not declared. */
    private String sendChunked(String contentType, int bytes) {
        String head = "POST /api/v1/" + project.token() + "/otlp/v1/traces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: " + contentType + "\r\nTransfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(bytes) + "\r\n";
        connection.writeInbound(Unpooled.wrappedBuffer(head.getBytes(StandardCharsets.US_ASCII), new byte[bytes],
                "\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
        connection.runPendingTasks();
        return BodiesReadOnWorkersTest.written(connection);
    }
}
