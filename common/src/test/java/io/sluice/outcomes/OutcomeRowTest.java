package io.sluice.outcomes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The outcomes topic's records, byte for byte as gateways have always written them: the sink and stored rows rely on them. */
class OutcomeRowTest {
    @Test
    void theValueIsAJsonObjectWithTheTablesColumnsAndTheWireCode() {
        OutcomeRow row = OutcomeRow.of("shop", 1_795_000_020L, Outcome.QUOTA_EXCEEDED, "ab12cd34", 3);
        assertEquals("{\"project\":\"shop\",\"minute\":1795000020,\"outcome\":\"quota_exceeded\",\"gateway\":\"ab12cd34\","
                + "\"events\":3,\"version\":3}", new String(row.json(), StandardCharsets.UTF_8));
    }

    @Test
    void theKeyIsProjectOutcomeMinuteAndGateway() {
        OutcomeRow row = OutcomeRow.of("", 60, Outcome.UNAUTHORIZED, "ab12cd34", 1);
        assertEquals("/unauthorized/60/ab12cd34", new String(row.key(), StandardCharsets.UTF_8));
    }

    @Test
    void theWireCodesAreTheOnesStoredRowsHold() {
        assertEquals(List.of("accepted", "unauthorized", "key_of_another_project", "project_disabled", "quota_exceeded",
                "too_many_failed_attempts", "not_found", "method_not_allowed", "bad_request", "uri_too_long",
                "headers_too_large", "body_too_large", "request_timeout", "unsupported_media_type", "unsupported_encoding",
                "corrupt_body", "invalid_json", "invalid_field", "invalid_envelope", "origin_not_allowed", "overloaded",
                "shutting_down", "unavailable", "project_unavailable", "client_gone", "client_discard", "unsupported_item", "filtered",
                "invalid_sample_rate",
                "cardinality_limited"),
                Arrays.stream(Outcome.values()).map(Outcome::code).toList());
    }
}
