package io.sluice.gateway.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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
import io.sluice.gateway.publish.TestOutcomes;
import io.sluice.gateway.validate.EventValidator;
import io.sluice.projects.Project;
import io.sluice.projects.ProjectKey;
import io.sluice.projects.Secrets;

/**
 * An admitted request's reservation is given back on every path, and the request leaves the
 * in-flight gauge: once its answer is written, when its connection closes while its body arrives
 * or while it waits behind another, when it is refused while its body arrives, and when an answer
 * ahead of it closes the connection (the gateway shutting down), and when its path fails in a way
 * no code foresaw (an Error from the producer: then it is answered 503, not confirmed). The real handlers of a
 * connection, in the gateway's order; Kafka acknowledges when the test says so.
 */
class ReservationsFreedTest {
    private static final int EVENT_LIMIT = 1 << 20;
    private final String key = Secrets.newKey();
    private final Project project = new Project(Secrets.newToken(), "tenant", false, List.of(ProjectKey.of("k1", key, null)),
            Instant.EPOCH);
    private final AtomicLong held = new AtomicLong();
    private final Gate gate = new Gate(new Authenticator(BodiesReadOnWorkersTest.lookup(project), Clock.systemUTC()),
            new FailedAuthLimiter(60, 10), TrustedProxies.NONE, new QuotaLimiter(1.0),
            new InFlightBudget(64 << 20, 64 << 20, held), new InFlightBudget(8 << 20, 1 << 20, new AtomicLong()),
            EVENT_LIMIT, 32 << 20);
    /** Whether the producer's send throws an Error, as no code foresees. */
    private final AtomicBoolean sendFails = new AtomicBoolean();
    private final MockProducer<byte[], byte[]> kafka = new MockProducer<>(BodiesReadOnWorkersTest.cluster(), false, null,
            new ByteArraySerializer(), new ByteArraySerializer()) {
        @Override
        public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
            if (sendFails.get()) {
                throw new OutOfMemoryError("an Error on the publish path");
            }
            return super.send(record, callback);
        }
    };
    private final GatewayMetrics metrics = new GatewayMetrics();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final GatewayServices services = new GatewayServices(gate, new BodyDecoder(EVENT_LIMIT),
            new EventValidator(Duration.ofDays(3650)), BodiesReadOnWorkersTest.publisher(kafka),
            TestOutcomes.to(new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer())), metrics,
            Clock.systemUTC(), draining, new BodyDecoder(32 << 20), null);
    private final EmbeddedChannel connection = BodiesReadOnWorkersTest.connection(services);

    @AfterEach
    void close() {
        connection.finishAndReleaseAll();
        services.outcomes().close();
        metrics.close();
    }

    @Test
    void anAnsweredRequestHoldsNothingOnceItsAnswerIsWritten() {
        send(event("a1"));
        assertEquals(200, held.get(), "the event's bytes, held while Kafka has not acknowledged it");

        acknowledgeAll();

        assertTrue(BodiesReadOnWorkersTest.written(connection).startsWith("HTTP/1.1 200"));
        assertNothingHeld();
    }

    @Test
    void aConnectionClosedWhileItsBodyArrivesGivesBackWhatTheBodyHeld() {
        String head = "POST /api/v1/" + project.token() + "/project HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n";
        send((head + " ".repeat(400)).getBytes(StandardCharsets.US_ASCII));
        assertEquals(400, held.get(), "the bytes of the body that arrived");
        assertEquals(1, metrics.inFlightRequests().get());

        connection.close();

        assertNothingHeld();
    }

    @Test
    void aBodyRefusedWhileItArrivesGivesBackWhatItHeldOnceAnswered() {
        String head = "POST /api/v1/" + project.token() + "/project HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
        int bytes = EVENT_LIMIT + 1;
        send((head + Integer.toHexString(bytes) + "\r\n" + " ".repeat(bytes) + "\r\n0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));

        assertTrue(BodiesReadOnWorkersTest.written(connection).startsWith("HTTP/1.1 413"));
        assertNothingHeld();
    }

    @Test
    void requestsWaitingBehindOneBeingPublishedGiveBackWhatTheyHeldWhenTheConnectionCloses() {
        send(concat(event("b1"), event("b2"), event("b3")));
        assertEquals(3, metrics.inFlightRequests().get(), "one being published, two waiting for their turn");

        connection.close();
        assertEquals(1, metrics.inFlightRequests().get(), "the one handed to Kafka holds its events until Kafka answers");
        acknowledgeAll();

        assertNothingHeld();
    }

    @Test
    void requestsBehindAnAnswerThatClosesTheConnectionHoldNothingOnceItIsWritten() {
        send(concat(event("c1"), event("c2"), event("c3")));
        draining.set(true); // the gateway shuts down: the next answer closes the connection

        acknowledgeAll();

        assertTrue(BodiesReadOnWorkersTest.written(connection).startsWith("HTTP/1.1 200"));
        assertNothingHeld();
    }

    /** The audit of issue 42: such a request went unanswered, holding its reservation until restart. */
    @Test
    void requestsWhosePublishFailsUnforeseenAreAnswered503AsNotConfirmed() {
        sendFails.set(true);
        send(concat(event("a1"), event("a2")));
        acknowledgeAll();
        String written = BodiesReadOnWorkersTest.written(connection);
        assertEquals(2, count(written, "HTTP/1.1 503 Service Unavailable"), written);
        assertEquals(2, count(written, "retry with the same event_id"), written);
    }

    @Test
    void requestsWhosePublishFailsUnforeseenGiveBackWhatTheyHeld() {
        sendFails.set(true);
        send(concat(event("a1"), event("a2")));
        acknowledgeAll();
        assertNothingHeld();
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }

    private void assertNothingHeld() {
        assertEquals(0, held.get(), "bytes held in the in-flight budget");
        assertEquals(0, metrics.inFlightRequests().get(), "requests in flight");
    }

    private void send(byte[] bytes) {
        connection.writeInbound(Unpooled.wrappedBuffer(bytes));
        connection.runPendingTasks();
    }

    /** Kafka acknowledges every record sent so far; the connection's loop then writes the answers. */
    private void acknowledgeAll() {
        while (kafka.completeNext()) {
            connection.runPendingTasks();
        }
        connection.runPendingTasks();
    }

    /** A v1 event of 200 bytes of JSON, with its head. */
    private byte[] event(String id) {
        String json = "{\"event_id\": \"" + id.repeat(16) + "\", \"message\": \"" + "m".repeat(137) + "\"}";
        return (head(json.length()) + json).getBytes(StandardCharsets.US_ASCII);
    }

    private String head(int contentLength) {
        return "POST /api/v1/" + project.token() + "/project HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: " + contentLength + "\r\n\r\n";
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
