package io.sluice.gateway.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

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
import io.sluice.testkit.OtelSpans;

/**
 * On demand ({@code -Dsluice.otlpHarness=true}): the gateway's CPU per span of a 100-server-span
 * OTLP export (Issue 40's "≤ 5 µs per event"), JSON and protobuf, through the real handlers on one
 * thread (codec, admission, the OTLP door, validation, scrubbing, the producer's {@code send}, the
 * answer), up to the records handed to a {@link MockProducer}: what an event loop spends, less the
 * real producer's serialization and compression. Thread CPU time of rounds of
 * {@value #REQUESTS_PER_ROUND} exports, the first {@value #WARM_UP_ROUNDS} rounds discarded; best
 * and median per span. {@code -Dsluice.otlpHarness.jfr=<file>} records execution samples (1 ms)
 * of the measured rounds, for {@code jfr print --events jdk.ExecutionSample}.
 */
@EnabledIfSystemProperty(named = "sluice.otlpHarness", matches = "true")
class OtlpExportCostHarness {
    private static final int SPANS = 100;
    private static final int REQUESTS_PER_ROUND = 50;
    private static final int WARM_UP_ROUNDS = Integer.getInteger("sluice.otlpHarness.warmUp", 40);
    private static final int ROUNDS = Integer.getInteger("sluice.otlpHarness.rounds", 60);
    private static final String JFR = System.getProperty("sluice.otlpHarness.jfr", "");

    private final String key = Secrets.newKey();
    private final Project project = new Project(Secrets.newToken(), "tenant", false, List.of(ProjectKey.of("k1", key, null)),
            Instant.EPOCH);
    private final Gate gate = new Gate(new Authenticator(BodiesReadOnWorkersTest.lookup(project), Clock.systemUTC()),
            new FailedAuthLimiter(60, 10), TrustedProxies.NONE, new QuotaLimiter(0.01),
            new InFlightBudget(256 << 20, 256 << 20, new AtomicLong()), new InFlightBudget(8 << 20, 1 << 20, new AtomicLong()),
            1 << 20, 32 << 20, 32 << 20);
    private final MockProducer<byte[], byte[]> kafka = new MockProducer<>(BodiesReadOnWorkersTest.cluster(), true, null,
            new ByteArraySerializer(), new ByteArraySerializer());
    private final MockProducer<byte[], byte[]> outcomeRecords = new MockProducer<>(true, null, new ByteArraySerializer(),
            new ByteArraySerializer());

    @Test
    void cpuPerSpanOfAHundredServerSpanExport() throws Exception {
        List<io.opentelemetry.sdk.trace.data.SpanData> spans = OtelSpans.typicalServerSpans(SPANS);
        byte[] json = OtelSpans.json(spans);
        byte[] protobuf = OtelSpans.protobuf(spans);
        GatewayMetrics metrics = new GatewayMetrics();
        GatewayServices services = new GatewayServices(gate, new BodyDecoder(1 << 20), new EventValidator(Duration.ofDays(3650)),
                BodiesReadOnWorkersTest.publisher(kafka), TestOutcomes.to(outcomeRecords), metrics, Clock.systemUTC(),
                new AtomicBoolean(), new BodyDecoder(32 << 20), null, null, new ExportReader(10_000), new BodyDecoder(32 << 20));
        EmbeddedChannel connection = BodiesReadOnWorkersTest.connection(services);
        jdk.jfr.Recording recording = JFR.isEmpty() ? null : new jdk.jfr.Recording();
        try {
            System.out.printf("export of %d server spans: JSON %,d bytes, protobuf %,d bytes%n", SPANS, json.length, protobuf.length);
            for (int round = 0; round < WARM_UP_ROUNDS; round++) {
                round(connection, json, "application/json");
                round(connection, protobuf, "application/x-protobuf");
            }
            if (recording != null) {
                recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
                recording.start();
            }
            double[] jsonPerSpan = new double[ROUNDS];
            double[] protobufPerSpan = new double[ROUNDS];
            for (int round = 0; round < ROUNDS; round++) { // alternated, so a neighbour's load falls on both alike
                jsonPerSpan[round] = round(connection, json, "application/json");
                protobufPerSpan[round] = round(connection, protobuf, "application/x-protobuf");
            }
            if (recording != null) {
                recording.stop();
                recording.dump(Path.of(JFR));
            }
            report("OTLP/JSON", jsonPerSpan);
            report("OTLP/protobuf", protobufPerSpan);
        } finally {
            if (recording != null) {
                recording.close();
            }
            connection.finishAndReleaseAll();
            services.outcomes().close();
            metrics.close();
        }
    }

    /** One round of exports; the thread's CPU per span, in µs. */
    private double round(EmbeddedChannel connection, byte[] body, String contentType) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        String head = "POST /api/v1/" + project.token() + "/otlp/v1/traces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: " + contentType + "\r\nContent-Length: " + body.length + "\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        long cpu = 0;
        for (int request = 0; request < REQUESTS_PER_ROUND; request++) {
            long start = threads.getCurrentThreadCpuTime();
            connection.writeInbound(Unpooled.wrappedBuffer(headBytes, body));
            connection.runPendingTasks();
            String answer = BodiesReadOnWorkersTest.written(connection);
            cpu += threads.getCurrentThreadCpuTime() - start;
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            assertTrue(answer.endsWith("\r\n\r\n{}") || answer.endsWith("\r\n\r\n"), "every span stored: " + answer);
            assertEquals(SPANS, kafka.history().size(), "the export's transactions published");
            kafka.clear();
            outcomeRecords.clear();
        }
        return cpu / 1_000.0 / REQUESTS_PER_ROUND / SPANS;
    }

    private static void report(String format, double[] perSpan) {
        double[] sorted = perSpan.clone();
        Arrays.sort(sorted);
        System.out.printf("%s: CPU per span, best %.2f µs, median %.2f µs (%d rounds of %d exports of %d spans, after %d warm-up rounds)%n",
                format, sorted[0], sorted[sorted.length / 2], sorted.length, REQUESTS_PER_ROUND, SPANS, WARM_UP_ROUNDS);
    }
}
