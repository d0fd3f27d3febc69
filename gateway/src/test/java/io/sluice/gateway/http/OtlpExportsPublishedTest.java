package io.sluice.gateway.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.IdGenerator;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.sluice.events.EventHeaders;
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
import io.sluice.projects.Quota;
import io.sluice.testkit.OtelSpans;

/**
 * What a varied set of OTLP trace exports, JSON and protobuf, makes the gateway publish and answer,
 * through the real handlers up to a {@link MockProducer}: every record (topic, partition, key, headers,
 * value), every outcome record and every answer, in order, against the capture in
 * {@code otlp-exports-published.txt}. The exports: exceptions in child spans whose server span comes
 * later in the export, spans not stored, a span refused by its door (too many exceptions) and one by
 * validation (a status code that is no number), secrets scrubbed, sample rates read and unreadable,
 * an export over the events an export may make (413), a project whose quota runs out within an
 * export and then refuses one whole (429), and quotas that run out within a JSON export (whose
 * spans are asked for their quota a {@code ResourceSpans} at a time) and within the mixed one.
 * {@code -Dsluice.capture=true} writes the capture anew.
 */
class OtlpExportsPublishedTest {
    private static final String CAPTURE = "otlp-exports-published.txt";
    /** Events an export may make here: the "too many events" export makes 14. */
    private static final int MAX_SPANS = 12;
    private static final String KEY = "slk_" + "k".repeat(43);
    private static final long START = Instant.parse("2026-03-02T10:15:30.123456789Z").toEpochMilli() * 1_000_000 + 456_789;

    @Test
    void eachExportPublishesAndAnswersAsCaptured() throws Exception {
        StringBuilder seen = new StringBuilder();
        Gateway gateway = new Gateway(project("0penProject0000000000AA", null));
        List<SpanData> mixed = mixedSpans();
        seen.append(gateway.send("mixed, JSON", OtelSpans.json(mixed), "application/json"));
        seen.append(gateway.send("mixed, protobuf", OtelSpans.protobuf(mixed), "application/x-protobuf"));
        List<SpanData> tooMany = serverSpansWithAnException(7, 1);
        seen.append(gateway.send("14 events, JSON", OtelSpans.json(tooMany), "application/json"));
        seen.append(gateway.send("14 events, protobuf", OtelSpans.protobuf(tooMany), "application/x-protobuf"));
        Gateway limited = new Gateway(project("quotaProject000000000AA", new Quota(1, 400)));
        List<SpanData> six = serverSpansWithAnException(6, 0);
        seen.append(limited.send("quota of 4, 6 spans, protobuf", OtelSpans.protobuf(six), "application/x-protobuf"));
        seen.append(limited.send("quota spent, JSON", OtelSpans.json(six), "application/json"));
        Gateway limitedJson = new Gateway(project("quotaJsonProject0000AA", new Quota(1, 400)));
        seen.append(limitedJson.send("quota of 4, 6 spans, JSON", OtelSpans.json(six), "application/json"));
        Gateway mixedLimited = new Gateway(project("quotaMixedProject000AA", new Quota(1, 300)));
        seen.append(mixedLimited.send("mixed, quota of 3, JSON", OtelSpans.json(mixed), "application/json"));
        if (Boolean.getBoolean("sluice.capture")) {
            Path file = Path.of("src/test/resources/io/sluice/gateway/http", CAPTURE);
            Files.createDirectories(file.getParent());
            Files.writeString(file, seen);
            return;
        }
        assertEquals(captured(), seen.toString());
    }

    private static String captured() throws IOException {
        try (InputStream in = OtlpExportsPublishedTest.class.getResourceAsStream(CAPTURE)) {
            return in == null ? "(no capture)" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static Project project(String token, Quota quota) {
        return new Project(token, "tenant", false, List.of(ProjectKey.of("k1", KEY, null)), Instant.EPOCH, quota, Map.of());
    }

    /**
     * In the order they end (the export's): a child span with an exception whose server span ends
     * later, an internal span, a server span with secrets and a sample rate, one whose status code
     * is no number, one with its own exception and an unreadable rate, one with 33 exceptions.
     */
    private static List<SpanData> mixedSpans() {
        return spans((tracer, at) -> {
            Span server = server(tracer, "GET /orders/{id}", at, null).setAttribute("http.route", "/orders/{id}")
                    .setAttribute("url.full", "https://shop.example.com/orders/7?token=abc123&page=2")
                    .setAttribute("http.response.status_code", 500L).setAttribute("password", "hunter2")
                    .setAttribute("user.id", "u-42").setAttribute("retry.ratio", 0.125);
            Span child = tracer.spanBuilder("SELECT orders").setSpanKind(SpanKind.CLIENT)
                    .setParent(Context.root().with(server)).setStartTimestamp(at + 1_000, TimeUnit.NANOSECONDS).startSpan();
            child.addEvent("exception", Attributes.builder().put("exception.type", "java.sql.SQLException")
                    .put("exception.message", "deadlock; password=swordfish").put("exception.stacktrace",
                            "java.sql.SQLException: deadlock\n\tat com.shop.Orders.find(Orders.java:42)\n"
                                    + "\tat com.shop.Api.get(Api.java:7)\n").build(), at + 2_000, TimeUnit.NANOSECONDS);
            child.end(at + 3_000, TimeUnit.NANOSECONDS);
            Span internal = tracer.spanBuilder("render").setSpanKind(SpanKind.INTERNAL).setParent(Context.root().with(server))
                    .setStartTimestamp(at + 4_000, TimeUnit.NANOSECONDS).startSpan();
            internal.end(at + 5_000, TimeUnit.NANOSECONDS);
            server.end(at + 9_000_000, TimeUnit.NANOSECONDS);
            server(tracer, "POST /pay", at, null).setAttribute("http.request.method", "POST").setAttribute("url.path", "/pay")
                    .setAttribute("http.response.status_code", "abc").end(at + 7_000_000, TimeUnit.NANOSECONDS);
            Span own = server(tracer, "GET /cart", at, TraceState.builder().put("ot", "th:zz").build())
                    .setAttribute("http.route", "/cart").setAttribute("api_key", "sk_live_0123456789abcdef");
            own.addEvent("exception", Attributes.builder().put("exception.type", "IllegalStateException")
                    .put("exception.message", "empty cart").build(), at + 50_000, TimeUnit.NANOSECONDS);
            own.end(at + 60_000, TimeUnit.NANOSECONDS);
            Span sampled = server(tracer, "GET /health", at, TraceState.builder().put("ot", "th:8").build())
                    .setAttribute("http.route", "/health").setAttribute("http.response.status_code", 200L);
            sampled.end(at + 70_000, TimeUnit.NANOSECONDS);
            Span looping = server(tracer, "GET /loop", at, null).setAttribute("http.route", "/loop");
            for (int i = 0; i < 33; i++) {
                looping.addEvent("exception", Attributes.builder().put("exception.type", "E" + i).build(), at + i,
                        TimeUnit.NANOSECONDS);
            }
            looping.end(at + 80_000, TimeUnit.NANOSECONDS);
        });
    }

    /** {@code count} server spans, each with {@code exceptions} exception events. */
    private static List<SpanData> serverSpansWithAnException(int count, int exceptions) {
        return spans((tracer, at) -> {
            for (int i = 0; i < count; i++) {
                Span span = server(tracer, "GET /items/{id}", at + i * 1_000_000L, null).setAttribute("http.route", "/items/{id}")
                        .setAttribute("http.request.method", "GET").setAttribute("url.path", "/items/" + i)
                        .setAttribute("http.response.status_code", 200L + i);
                for (int e = 0; e < exceptions; e++) {
                    span.addEvent("exception", Attributes.builder().put("exception.type", "Timeout").build(),
                            at + i * 1_000_000L + 10, TimeUnit.NANOSECONDS);
                }
                span.end(at + i * 1_000_000L + 500_000, TimeUnit.NANOSECONDS);
            }
        });
    }

    private static Span server(Tracer tracer, String name, long at, TraceState state) {
        var builder = tracer.spanBuilder(name).setSpanKind(SpanKind.SERVER).setStartTimestamp(at, TimeUnit.NANOSECONDS)
                .setNoParent();
        if (state != null) {
            builder.setParent(Context.root().with(Span.wrap(SpanContext.createFromRemoteParent("0af7651916cd43dd8448eb211c80319c",
                    "b7ad6b7169203331", TraceFlags.getSampled(), state))));
        }
        return builder.startSpan();
    }

    private interface Recording {
        void record(Tracer tracer, long at);
    }

    /** The spans {@code recording} makes, in the order they end, with ids counted from 1 (each export alike). */
    private static List<SpanData> spans(Recording recording) {
        List<SpanData> spans = new ArrayList<>();
        SpanExporter collecting = new SpanExporter() {
            @Override
            public CompletableResultCode export(java.util.Collection<SpanData> ended) {
                spans.addAll(ended);
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode flush() {
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode shutdown() {
                return CompletableResultCode.ofSuccess();
            }
        };
        long[] next = {0};
        IdGenerator counted = new IdGenerator() {
            @Override
            public String generateSpanId() {
                return String.format("%016x", ++next[0] * 0x1111);
            }

            @Override
            public String generateTraceId() {
                return String.format("%032x", ++next[0] * 0x1234567L);
            }
        };
        try (SdkTracerProvider provider = SdkTracerProvider.builder().setIdGenerator(counted)
                .setResource(Resource.create(Attributes.builder().put("service.name", "shop").put("service.version", "1.2.0")
                        .put("deployment.environment.name", "production").put("telemetry.sdk.name", "opentelemetry")
                        .put("telemetry.sdk.language", "java").put("telemetry.sdk.version", "1.50.0").put("os.type", "linux")
                        .build()))
                .addSpanProcessor(SimpleSpanProcessor.create(collecting)).build()) {
            recording.record(provider.get("io.sluice.test"), START);
        }
        return spans;
    }

    /**
     * A gateway's handlers for one project, publishing to a {@link MockProducer} whose topics have 4
     * partitions; each export on services of its own (its outcomes flushed once it is answered), all
     * through one gate (one quota).
     */
    private static final class Gateway {
        final Project project;
        final Gate gate;

        Gateway(Project project) {
            this.project = project;
            gate = new Gate(new Authenticator(BodiesReadOnWorkersTest.lookup(project), Clock.systemUTC()),
                    new FailedAuthLimiter(60, 10), TrustedProxies.NONE, new QuotaLimiter(0.01),
                    new InFlightBudget(64 << 20, 64 << 20, new AtomicLong()), new InFlightBudget(8 << 20, 1 << 20, new AtomicLong()),
                    1 << 20, 32 << 20, 32 << 20);
        }

        /** The export's answer, the records it published and the outcomes it recorded, as text. */
        String send(String name, byte[] body, String contentType) {
            MockProducer<byte[], byte[]> kafka = new MockProducer<>(cluster(), true, null, new ByteArraySerializer(),
                    new ByteArraySerializer());
            MockProducer<byte[], byte[]> outcomes = new MockProducer<>(true, null, new ByteArraySerializer(),
                    new ByteArraySerializer());
            GatewayMetrics metrics = new GatewayMetrics();
            GatewayServices services = new GatewayServices(gate, new BodyDecoder(1 << 20), new EventValidator(Duration.ofDays(3650)),
                    BodiesReadOnWorkersTest.publisher(kafka), TestOutcomes.to(outcomes), metrics, Clock.systemUTC(),
                    new AtomicBoolean(), new BodyDecoder(32 << 20), null, null, new ExportReader(MAX_SPANS),
                    new BodyDecoder(32 << 20));
            EmbeddedChannel connection = BodiesReadOnWorkersTest.connection(services);
            String head = "POST /api/v1/" + project.token() + "/otlp/v1/traces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + KEY
                    + "\r\nContent-Type: " + contentType + "\r\nContent-Length: " + body.length + "\r\n\r\n";
            String answer;
            try {
                connection.writeInbound(Unpooled.wrappedBuffer(head.getBytes(StandardCharsets.US_ASCII), body));
                connection.runPendingTasks();
                answer = BodiesReadOnWorkersTest.written(connection);
            } finally {
                connection.finishAndReleaseAll();
                services.outcomes().close(); // sends what it counted
                metrics.close();
            }
            StringBuilder seen = new StringBuilder("== " + name + "\n");
            seen.append("answer: ").append(printable(answer.replaceAll("(?i)\r\ndate: [^\r]*", "").replace("\r\n", " | "))).append('\n');
            for (ProducerRecord<byte[], byte[]> record : kafka.history()) {
                seen.append("record ").append(record.topic()).append(" partition ").append(record.partition()).append(" key ")
                        .append(record.key() == null ? "none" : HexFormat.of().formatHex(record.key())).append('\n');
                for (Header header : record.headers()) {
                    String value = new String(header.value(), StandardCharsets.UTF_8);
                    seen.append("  header ").append(header.key()).append(" = ")
                            .append(header.key().equals(EventHeaders.RECEIVED_AT) ? "(received)" : printable(value)).append('\n');
                }
                seen.append("  value ").append(new String(record.value(), StandardCharsets.UTF_8)).append('\n');
            }
            for (ProducerRecord<byte[], byte[]> outcome : outcomes.history()) {
                // The minute it was counted in and the gateway's random id differ from run to run.
                seen.append("outcome ").append(new String(outcome.value(), StandardCharsets.UTF_8)
                        .replaceAll("\"minute\":[0-9]+", "\"minute\":(now)").replaceAll("\"gateway\":\"[0-9a-f]+\"", "\"gateway\":(id)"))
                        .append('\n');
            }
            return seen.toString();
        }
    }

    /** Control characters (the fields header separates its fields with them) as {@code \\uXXXX}. */
    private static String printable(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(c -> out.append(Character.isISOControl(c) ? String.format("\\u%04x", c) : Character.toString(c)));
        return out.toString();
    }

    /** Every topic the publisher may write to, each with 4 partitions: the record's partition is the chooser's. */
    private static Cluster cluster() {
        Node node = new Node(0, "h", 1);
        List<PartitionInfo> partitions = new ArrayList<>();
        for (String topic : List.of("t", "e", "h", "tr", "eh", "o")) {
            for (int partition = 0; partition < 4; partition++) {
                partitions.add(new PartitionInfo(topic, partition, node, new Node[] {node}, new Node[] {node}));
            }
        }
        return new Cluster("c", List.of(node), partitions, java.util.Set.of(), java.util.Set.of());
    }
}
