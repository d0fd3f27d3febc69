package io.sluice.gateway.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.sluice.config.Topics;
import io.sluice.gateway.admit.Authenticator;
import io.sluice.gateway.admit.FailedAuthLimiter;
import io.sluice.gateway.admit.Gate;
import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.admit.ProjectLookup;
import io.sluice.gateway.admit.QuotaLimiter;
import io.sluice.gateway.admit.TrustedProxies;
import io.sluice.gateway.ops.GatewayMetrics;
import io.sluice.gateway.publish.EventPublisher;
import io.sluice.gateway.publish.PartitionChooser;
import io.sluice.gateway.publish.PublishHealth;
import io.sluice.gateway.publish.TestOutcomes;
import io.sluice.gateway.decompress.BodyDecoder;
import io.sluice.gateway.validate.EventValidator;
import io.sluice.projects.Project;
import io.sluice.projects.ProjectKey;
import io.sluice.projects.Secrets;

/**
 * Bodies read on a read worker. A connection that closes while its body waits for a worker (the
 * worker busy with others' bodies): the body stays counted, in the budget and in flight, until the
 * worker is done with it, and the worker drops it unread, publishing nothing. Strangers' bodies
 * wait within their share of the queue, and a project's within its own. Once the workers stop (the gateway's drain timeout passed),
 * a body waiting for them, or handed to them later, is answered 503 shutting_down unread and gives
 * its reservation back. The real handlers of a connection, in the gateway's order; the read
 * workers' queue is held by the test.
 */
class BodiesReadOnWorkersTest {
    private final String key = Secrets.newKey();
    private final Project project = new Project(Secrets.newToken(), "tenant", false, List.of(ProjectKey.of("k1", key, null)),
            Instant.EPOCH);
    private final AtomicLong tenantsHeld = new AtomicLong();
    private final AtomicLong strangersHeld = new AtomicLong();
    private final Gate gate = new Gate(new Authenticator(lookup(project), Clock.systemUTC()), new FailedAuthLimiter(60, 10),
            TrustedProxies.NONE, new QuotaLimiter(1.0), new InFlightBudget(64 << 20, 64 << 20, tenantsHeld),
            new InFlightBudget(8 << 20, 1 << 20, strangersHeld), 1 << 20, 32 << 20);
    /** The read workers' queue: its tasks run only when the test runs them. */
    private final List<Runnable> queued = new ArrayList<>();
    private final MockProducer<byte[], byte[]> kafka = new MockProducer<>(cluster(), true, null, new ByteArraySerializer(),
            new ByteArraySerializer());
    private final GatewayMetrics metrics = new GatewayMetrics();
    private final GatewayServices services = services(queued::add);
    private final List<EmbeddedChannel> connections = new ArrayList<>();

    @AfterEach
    void close() {
        readers.close();
        connections.forEach(EmbeddedChannel::finishAndReleaseAll);
        services.outcomes().close();
        metrics.close();
    }

    @Test
    void aStrangersBodyWaitingForAWorkerStaysCountedAfterItsConnectionClosesUntilTheWorkerIsDone() {
        EmbeddedChannel connection = connect();
        connection.writeInbound(strangersEnvelope());
        long held = strangersHeld.get();
        assertEquals(1, queued.size(), "waits for a read worker");

        connection.close();
        assertEquals(held, strangersHeld.get(), "the body is still in memory: its bytes stay counted");
        assertEquals(1, metrics.inFlightRequests().get());

        workersReachTheQueue(connection);
        assertEquals(0, strangersHeld.get());
        assertEquals(0, metrics.inFlightRequests().get());
    }

    @Test
    void theBudgetIsExactAfterManyConnectionsClosedWhileTheirBodiesWaited() {
        for (int i = 0; i < 20; i++) {
            EmbeddedChannel connection = connect();
            connection.writeInbound(strangersEnvelope());
            connection.close();
        }
        assertEquals(8_000_000, strangersHeld.get(), "8 bodies fit the strangers' budget; the others were refused");
        assertEquals(8, metrics.inFlightRequests().get());

        connections.forEach(this::workersReachTheQueue);
        assertEquals(0, strangersHeld.get());
        assertEquals(0, metrics.inFlightRequests().get());
    }

    @Test
    void aTenantsRequestWhoseConnectionClosedBeforeItsWorkerIsCountedAsClientGoneAndNotPublished() {
        EmbeddedChannel connection = connect();
        connection.writeInbound(tenantsEvent());
        assertEquals(1, queued.size(), "waits for a read worker");

        connection.close(); // its client timed out, and may be retrying
        workersReachTheQueue(connection);

        assertEquals(0, kafka.history().size());
        assertTrue(metrics.prometheusText().contains("sluice_gateway_rejections_total{reason=\"client_gone\"} 1.0"),
                metrics.prometheusText());
        assertEquals(0, tenantsHeld.get());
        assertEquals(0, metrics.inFlightRequests().get());
    }

    @Test
    void aTenantsRequestWhoseConnectionStaysOpenIsPublished() {
        EmbeddedChannel connection = connect();
        connection.writeInbound(tenantsEvent());
        workersReachTheQueue(connection);

        assertEquals(1, kafka.history().size());
        assertEquals(0, tenantsHeld.get());
        assertEquals(0, metrics.inFlightRequests().get());
    }

    /** Kafka refusing the record for its size is the request's fault: 413, no retry (a 503 would be retried forever). */
    @Test
    void anEventKafkaRefusesAsTooLargeIsAnswered413NotUnavailable() {
        kafka.sendException = new org.apache.kafka.common.errors.RecordTooLargeException("the record is too large");
        EmbeddedChannel connection = connect();
        connection.writeInbound(tenantsEvent());
        workersReachTheQueue(connection);

        String refused = answer(connection);
        assertTrue(refused.startsWith("HTTP/1.1 413"), refused);
        assertTrue(refused.contains("\"error\":\"body_too_large\""), refused);
    }

    @Test
    void strangersBodiesWaitWithinTheirShareOfTheQueueAndTheTenantsStillFindPlaces() throws Exception {
        GatewayServices shared = services(readers); // one worker, 4 places: the strangers' share is 1
        CountDownLatch busy = new CountDownLatch(1);
        occupyTheWorker(busy); // the worker reads another's body
        connect(shared).writeInbound(strangersEnvelope());
        EmbeddedChannel second = connect(shared);
        second.writeInbound(strangersEnvelope());
        EmbeddedChannel tenant = connect(shared);
        tenant.writeInbound(tenantsEvent());

        try {
            assertTrue(answer(second).startsWith("HTTP/1.1 503"));
            assertEquals("none", answer(tenant), "the tenant's request waits for the worker");
        } finally {
            shared.outcomes().close(); // the worker stays busy: closing the workers interrupts it, drops what waits
        }
    }

    @Test
    void aTenantsBodyBeyondItsShareOfTheWorkersPlacesIsAnswered503OverloadedAndCounted() {
        GatewayServices shared = services(readers); // one worker, 4 places: a project's share is 1
        CountDownLatch busy = new CountDownLatch(1);
        occupyTheWorker(busy); // the worker reads another's body
        EmbeddedChannel first = connect(shared);
        first.writeInbound(tenantsEvent());
        EmbeddedChannel second = connect(shared);
        second.writeInbound(tenantsEvent());
        try {
            assertEquals("none", answer(first), "waits for the worker");
            String refused = written(second);
            assertTrue(refused.startsWith("HTTP/1.1 503"), refused);
            assertTrue(refused.contains("\"error\":\"overloaded\""), refused);
            assertTrue(refused.contains("the project holds its share of the read workers' places"), refused);
            assertTrue(refused.toLowerCase(java.util.Locale.ROOT).contains("\r\nretry-after: 1\r\n"), refused);
            assertTrue(metrics.prometheusText().contains("sluice_gateway_rejections_total{reason=\"overloaded\"} 1.0"),
                    metrics.prometheusText());
        } finally {
            busy.countDown();
            shared.outcomes().close();
        }
    }

    @Test
    void aBodyWaitingForAWorkerWhenTheWorkersStopIsAnswered503ShuttingDownUnreadAndGivesBackItsReservation() {
        GatewayServices shared = services(readers);
        CountDownLatch busy = new CountDownLatch(1);
        occupyTheWorker(busy); // the one worker reads another's
        EmbeddedChannel connection = connect(shared);
        connection.writeInbound(tenantsEvent());
        try {
            assertEquals("none", answer(connection), "waits for the worker");

            assertEquals(1, readers.stop(), "the gateway's drain timeout passed");
            connection.runPendingTasks(); // the loop writes the answer

            assertShuttingDown(written(connection));
            assertEquals(0, kafka.history().size());
            assertEquals(0, tenantsHeld.get());
            assertEquals(0, metrics.inFlightRequests().get());
        } finally {
            busy.countDown();
            shared.outcomes().close();
        }
    }

    @Test
    void aBodyHandedToTheWorkersAfterTheyStoppedIsAnswered503ShuttingDownNotOverloaded() {
        GatewayServices shared = services(readers);
        readers.stop();
        EmbeddedChannel connection = connect(shared);
        connection.writeInbound(tenantsEvent()); // it was being received when the drain timeout passed
        try {
            connection.runPendingTasks();

            assertShuttingDown(written(connection));
            assertEquals(0, kafka.history().size());
            assertEquals(0, tenantsHeld.get());
            assertEquals(0, metrics.inFlightRequests().get());
        } finally {
            shared.outcomes().close();
        }
    }

    /** A 503 shutting_down with its Retry-After, counted as such. */
    private void assertShuttingDown(String answer) {
        assertTrue(answer.startsWith("HTTP/1.1 503"), answer);
        assertTrue(answer.contains("\"error\":\"shutting_down\""), answer);
        assertTrue(answer.toLowerCase(java.util.Locale.ROOT).contains("\r\nretry-after: 1\r\n"), answer);
        assertTrue(metrics.prometheusText().contains("sluice_gateway_rejections_total{reason=\"shutting_down\"} 1.0"),
                metrics.prometheusText());
    }

    private final ReadWorkers readers = new ReadWorkers(1, 4);

    /** Everything written to the connection so far, head and body. */
    static String written(EmbeddedChannel connection) {
        StringBuilder written = new StringBuilder();
        for (String part = answer(connection); !part.equals("none"); part = answer(connection)) {
            written.append(part);
        }
        return written.toString();
    }

    private static String answer(EmbeddedChannel connection) {
        io.netty.buffer.ByteBuf answer = connection.readOutbound();
        try {
            return answer == null ? "none" : answer.toString(StandardCharsets.US_ASCII);
        } finally {
            if (answer != null) {
                answer.release();
            }
        }
    }

    /** The one worker reads another project's body until {@code busy} opens; returns once it has taken it. */
    private void occupyTheWorker(CountDownLatch busy) {
        CountDownLatch taken = new CountDownLatch(1);
        readers.execute(new ReadWorkers.Read("another", () -> {
            taken.countDown();
            awaitQuietly(busy);
        }, () -> { }));
        try {
            assertTrue(taken.await(10, java.util.concurrent.TimeUnit.SECONDS), "the worker took another's body");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private GatewayServices services(java.util.concurrent.Executor readers) {
        return new GatewayServices(gate, new BodyDecoder(1 << 20), new EventValidator(Duration.ofDays(3650)), publisher(kafka),
                TestOutcomes.to(new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer())), metrics,
                Clock.systemUTC(), new AtomicBoolean(), new BodyDecoder(32 << 20), null, readers);
    }

    private EmbeddedChannel connect() {
        return connect(services);
    }

    private EmbeddedChannel connect(GatewayServices services) {
        EmbeddedChannel connection = connection(services);
        connections.add(connection);
        return connection;
    }

    /** A connection with the real handlers, in the gateway's order. */
    static EmbeddedChannel connection(GatewayServices services) {
        UnsentAnswers.Total total = new UnsentAnswers.Total(new AtomicLong(), 1 << 20);
        UnsentAnswers unsent = new UnsentAnswers(total);
        return new EmbeddedChannel(unsent, new HttpServerCodec(), new Admission(100, services),
                new BodyLimit(services.gate().largestBody()), new IngestHandler(services, new IngestPath(services), unsent, total));
    }

    /** The workers run what waited in their queue; the connection's loop then runs what they handed back. */
    private void workersReachTheQueue(EmbeddedChannel connection) {
        List<Runnable> waiting = new ArrayList<>(queued);
        queued.clear();
        waiting.forEach(Runnable::run);
        connection.runPendingTasks();
    }

    /** A dsn-only envelope of 1,000,000 bytes: within a stranger's share, larger than a slice (read on a worker). */
    private static io.netty.buffer.ByteBuf strangersEnvelope() {
        byte[] body = new byte[1_000_000];
        Arrays.fill(body, (byte) ' ');
        String head = "POST /api/1/envelope/ HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length + "\r\n\r\n";
        return Unpooled.wrappedBuffer(head.getBytes(StandardCharsets.US_ASCII), body);
    }

    /** One event of 300 KB, larger than a slice: read on a worker. */
    private io.netty.buffer.ByteBuf tenantsEvent() {
        byte[] body = ("{\"event_id\": \"a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5\", \"message\": \"boom\", \"extra\": {\"padding\": \""
                + "x".repeat(300_000) + "\"}}").getBytes(StandardCharsets.UTF_8);
        String head = "POST /api/v1/" + project.token() + "/project HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n";
        return Unpooled.wrappedBuffer(head.getBytes(StandardCharsets.US_ASCII), body);
    }

    static EventPublisher publisher(MockProducer<byte[], byte[]> kafka) {
        Topics topics = new Topics("t", "e", "p", "h", "tr", "eh", "e1", "o", "d", "r1", "r1h", "e1h", "tr1h", 1, (short) 1, Duration.ofDays(1));
        EventPublisher publisher = new EventPublisher(kafka, topics, PartitionChooser.development(),
                new PublishHealth(Duration.ofSeconds(60), System::nanoTime));
        publisher.warmUp(Duration.ofSeconds(5));
        return publisher;
    }

    /** Every topic the publisher may write to, with one partition. */
    static Cluster cluster() {
        Node node = new Node(0, "h", 1);
        List<PartitionInfo> partitions = new ArrayList<>();
        for (String topic : List.of("t", "e", "h", "tr", "eh", "o")) {
            partitions.add(new PartitionInfo(topic, 0, node, new Node[] {node}, new Node[] {node}));
        }
        return new Cluster("c", List.of(node), partitions, Set.of(), Set.of());
    }

    static ProjectLookup lookup(Project project) {
        return new ProjectLookup() {
            public Project find(String token) {
                return token.equals(project.token()) ? project : null;
            }

            public String tokenOwningKey(byte[] hash) {
                return project.token();
            }

            public Project byNumericId(long id) {
                return null;
            }

            public String tokenOwningDsnKey(String dsnKey) {
                return null;
            }

            public boolean isOrWasDsnKey(String dsnKey) {
                return false;
            }

            public boolean isUnreadable(String token) {
                return false;
            }

            public String unreadableTokenOf(long id) {
                return null;
            }

            public boolean isUnreadableWithUnknownKeys(String token) {
                return false;
            }
        };
    }
}
