package io.sluice.outcomes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** What clients name (reasons, item types) is stored as bounded words: the outcome column cannot grow or be forged. */
class QualifiedOutcomeTest {
    @Test
    void theQualifierIsLowerCaseWordCharactersOnly() {
        assertEquals("client_discard:ratelimit_backoff", QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "ratelimit_backoff").code());
        assertEquals("unsupported_item:a_b_c_d_", QualifiedOutcome.of(Outcome.UNSUPPORTED_ITEM, "A:b/c\nd\u00e9").code());
        assertEquals("client_discard:unknown", QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "").code());
    }

    @Test
    void theQualifierIsCutAt64Characters() {
        assertEquals(64, QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "x".repeat(10_000)).qualifier().length());
    }

    @Test
    void aRowOfAQualifiedOutcomeCarriesItsCode() {
        OutcomeRow row = OutcomeRow.of("shop", 60, QualifiedOutcome.of(Outcome.CLIENT_DISCARD, "sample_rate"), "g1", 4);
        assertEquals("{\"project\":\"shop\",\"minute\":60,\"outcome\":\"client_discard:sample_rate\",\"gateway\":\"g1\","
                + "\"events\":4,\"version\":4}", new String(row.json(), StandardCharsets.UTF_8));
        assertEquals("shop/client_discard:sample_rate/60/g1", new String(row.key(), StandardCharsets.UTF_8));
    }
}
