package io.sluice.gateway.envelope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.QualifiedOutcome;

class ClientReportsTest {
    private static Envelope.Item item(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return new Envelope.Item("client_report", null, bytes, 0, bytes.length);
    }

    @Test
    void discardsAreSummedPerDocumentedReasonAndAnyOtherAsOther() {
        Map<QualifiedOutcome, Long> discards = ClientReports.discards(item("{\"timestamp\":1,\"discarded_events\":["
                + "{\"reason\":\"ratelimit_backoff\",\"category\":\"error\",\"quantity\":3},"
                + "{\"reason\":\"ratelimit_backoff\",\"category\":\"transaction\",\"quantity\":2},"
                + "{\"reason\":\"Queue-Overflow!\",\"category\":\"error\",\"quantity\":1}]}"));
        assertEquals(Map.of(QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "ratelimit_backoff"), 5L,
                QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "other"), 1L), discards);
    }

    @Test
    void anUnreadableReportCountsNothing() {
        assertEquals(Map.of(), ClientReports.discards(item("not json")));
        assertEquals(Map.of(), ClientReports.discards(item("{\"discarded_events\":{}}")));
        assertEquals(Map.of(), ClientReports.discards(item("{\"discarded_events\":[{\"reason\":1,\"quantity\":1}]}")));
    }

    @Test
    void aQuantityIsBoundedAndNeverNegative() {
        assertEquals(Map.of(QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "other"), 1_000_000L), ClientReports.discards(
                item("{\"discarded_events\":[{\"reason\":\"x\",\"quantity\":99999999999},{\"reason\":\"x\",\"quantity\":-5}]}")));
    }

    @Test
    void twoHundredDistinctReasonsCountAsOneOther() {
        String entries = IntStream.range(0, 200).mapToObj(i -> "{\"reason\":\"r" + i + "\",\"quantity\":1}")
                .collect(Collectors.joining(","));
        Map<QualifiedOutcome, Long> discards = ClientReports.discards(item("{\"discarded_events\":[" + entries
                + ",{\"reason\":\"sample_rate\",\"quantity\":2}]}"));
        assertEquals(Map.of(QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "other"), 200L,
                QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "sample_rate"), 2L), discards);
    }

    private static String entries(int count, long quantity) {
        return IntStream.range(0, count).mapToObj(i -> "{\"reason\":\"sample_rate\",\"quantity\":" + quantity + "}")
                .collect(Collectors.joining(",", "{\"discarded_events\":[", "]}"));
    }

    /** Issue 29 finding 7: a report is read up to its 256th entry (an SDK sends one per category and reason). */
    @Test
    void aReportCountsItsFirst256EntriesOnly() {
        assertEquals(Map.of(QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "sample_rate"), 256L),
                ClientReports.discards(item(entries(1000, 1))));
    }

    /** Issue 29 finding 7: a report of many maximal entries counted a million each, about 10^9 a report. */
    @Test
    void aReportCountsAtMostAMillionDiscardsInAll() {
        assertEquals(Map.of(QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "sample_rate"), 1_000_000L),
                ClientReports.discards(item(entries(1000, 999_999_999))));
    }

    /**
     * Issue 29 finding 7: an envelope (one quota token) of 1,000 such reports added up to about
     * 10^12; it counts at most a million discards in all, and its other counts are left alone.
     */
    @Test
    void anEnvelopeOfManyReportsCountsAtMostAMillionDiscardsInAll() {
        Map<QualifiedOutcome, Long> counted = new java.util.HashMap<>();
        QualifiedOutcome unsupported = QualifiedOutcome.of(Outcome.UNSUPPORTED_ITEM, "session");
        counted.put(unsupported, 3L);
        for (int i = 0; i < 1000; i++) {
            ClientReports.count(item(entries(200, 999_999)), counted);
        }
        assertEquals(Map.of(QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "sample_rate"), 1_000_000L, unsupported, 3L), counted);
    }

    @Test
    void aReportOverSixtyFourKibibytesIsRefused() {
        String empties = "{},".repeat(64 * 1024 / 3) + "{}";
        Rejection refused = assertThrows(Rejection.class, () -> ClientReports.discards(item("{\"discarded_events\":[" + empties + "]}")));
        assertEquals(Outcome.INVALID_ENVELOPE, refused.outcome());
    }
}
