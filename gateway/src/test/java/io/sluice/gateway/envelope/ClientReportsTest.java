package io.sluice.gateway.envelope;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.QualifiedOutcome;

class ClientReportsTest {
    private static Envelope.Item item(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return new Envelope.Item("client_report", null, bytes, 0, bytes.length);
    }

    @Test
    void discardsAreSummedPerSanitizedReason() {
        Map<QualifiedOutcome, Long> discards = ClientReports.discards(item("{\"timestamp\":1,\"discarded_events\":["
                + "{\"reason\":\"ratelimit_backoff\",\"category\":\"error\",\"quantity\":3},"
                + "{\"reason\":\"ratelimit_backoff\",\"category\":\"transaction\",\"quantity\":2},"
                + "{\"reason\":\"Queue-Overflow!\",\"category\":\"error\",\"quantity\":1}]}"));
        assertEquals(Map.of(QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "ratelimit_backoff"), 5L,
                QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "queue_overflow_"), 1L), discards);
        assertEquals("client_discard:queue_overflow_", QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "Queue-Overflow!").code());
    }

    @Test
    void anUnreadableReportCountsNothing() {
        assertEquals(Map.of(), ClientReports.discards(item("not json")));
        assertEquals(Map.of(), ClientReports.discards(item("{\"discarded_events\":{}}")));
        assertEquals(Map.of(), ClientReports.discards(item("{\"discarded_events\":[{\"reason\":1,\"quantity\":1}]}")));
    }

    @Test
    void aQuantityIsBoundedAndNeverNegative() {
        assertEquals(Map.of(QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "x"), 1_000_000L), ClientReports.discards(
                item("{\"discarded_events\":[{\"reason\":\"x\",\"quantity\":99999999999},{\"reason\":\"x\",\"quantity\":-5}]}")));
    }
}
