package io.sluice.gateway.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;

import io.netty.buffer.Unpooled;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.sluice.config.Settings;
import io.sluice.gateway.GatewayConfig;
import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.decompress.BodyDecoder;
import io.sluice.testkit.OtelSpans;

/**
 * The default OTLP limits take what a Collector's batch processor sends by default (8,192 spans,
 * and more when its last input overshoots): the span cap of typical server spans, as the SDK
 * encodes them, fits the body limit in either encoding, and reading it fits one project's share
 * of the default in-flight budget.
 */
class OtlpDefaultsTest {
    private static final GatewayConfig DEFAULTS = GatewayConfig.from(new Settings(Map.of()));
    private static final List<SpanData> SPANS = OtelSpans.typicalServerSpans(DEFAULTS.maxOtlpSpans());

    @Test
    void theSpanCapOfTypicalSpansFitsTheBodyLimitInEitherEncodingCompressedOrNot() {
        byte[] protobuf = OtelSpans.protobuf(SPANS);
        byte[] json = OtelSpans.json(SPANS);
        System.out.printf("%,d typical spans: protobuf %,d bytes (%,d gzip), JSON %,d bytes (%,d gzip); limit %,d%n", SPANS.size(),
                protobuf.length, gzip(protobuf).length, json.length, gzip(json).length, DEFAULTS.maxOtlpBytes());

        assertTrue(DEFAULTS.maxOtlpSpans() >= 8192, "a Collector's default batch");
        assertTrue(json.length <= DEFAULTS.maxOtlpBytes(), json.length + " bytes of JSON");
        assertTrue(protobuf.length <= DEFAULTS.maxOtlpBytes(), protobuf.length + " bytes of protobuf");
    }

    @Test
    void readingTheSpanCapOfTypicalSpansFitsOneProjectsShareOfTheInFlightBudget() {
        for (OtlpFormat format : OtlpFormat.values()) {
            byte[] body = gzip(format == OtlpFormat.PROTOBUF ? OtelSpans.protobuf(SPANS) : OtelSpans.json(SPANS));
            InFlightBudget budget = new InFlightBudget(DEFAULTS.maxInFlightBytes(), DEFAULTS.maxInFlightBytesPerClient(),
                    DEFAULTS.maxInFlightBytesPerProject(), new AtomicLong());
            InFlightBudget.Reservation reservation = budget.expect(InetAddress.getLoopbackAddress(), "project", 0);
            reservation.extend(body.length); // the body as it arrived

            byte[] decompressed = new BodyDecoder(DEFAULTS.maxOtlpBytes()).decode(Unpooled.wrappedBuffer(body), "gzip", reservation);
            List<MappedSpan> mapped = new ExportReader(DEFAULTS.maxOtlpSpans()).read(decompressed, format, reservation, ExportReader.SpanQuota.NONE);

            assertEquals(SPANS.size(), mapped.size());
            System.out.printf("%s: %,d bytes held once read, of the project's %,d%n", format, reservation.bytes(),
                    budget.maxBytesPerProject());
        }
    }

    private static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
