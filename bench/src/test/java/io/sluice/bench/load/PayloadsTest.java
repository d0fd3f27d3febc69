package io.sluice.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The bodies of the load and of the producer ceiling differ as events do, so that they do not compress to nothing. */
class PayloadsTest {
    @Test
    void everyVariedBodyIsDifferent() {
        List<byte[]> bodies = Payloads.transactions(1_024);
        Set<ByteBuffer> distinct = new HashSet<>();
        bodies.forEach(body -> distinct.add(ByteBuffer.wrap(body)));
        assertEquals(1_024, distinct.size());
    }

    @Test
    void eachVariedBodyIsATransactionWithItsOwnEventAndTraceIds() throws Exception {
        JsonNode first = new ObjectMapper().readTree(Payloads.transactions(2).get(0));
        JsonNode second = new ObjectMapper().readTree(Payloads.transactions(2).get(1));
        assertEquals("GET /api/users/{id}", first.get("transaction").asText());
        assertTrue(first.get("event_id").asText().matches("[0-9a-f]{32}"), first.toString());
        assertTrue(!first.get("event_id").equals(second.get("event_id")));
        assertTrue(!first.at("/contexts/trace/trace_id").equals(second.at("/contexts/trace/trace_id")));
    }

    @Test
    void everyBodyWithoutAnEventIdIsDifferent() {
        Set<ByteBuffer> distinct = new HashSet<>();
        Payloads.transactionsWithoutEventIds(1_024).forEach(body -> distinct.add(ByteBuffer.wrap(body)));
        assertEquals(1_024, distinct.size());
    }

    @Test
    void aBodySentToTheGatewayAgainAndAgainCarriesNoEventIdSoEachRequestIsANewEvent() throws Exception {
        for (byte[] body : Payloads.transactionsWithoutEventIds(3)) {
            JsonNode transaction = new ObjectMapper().readTree(body);
            assertTrue(transaction.path("event_id").isMissingNode(), transaction.toString());
            assertEquals("GET /api/users/{id}", transaction.get("transaction").asText());
        }
    }
}
