package io.sluice.gateway.envelope;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class ItemTypesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Envelope.Item item(String header) throws Exception {
        JsonNode parsed = JSON.readTree(header);
        return new Envelope.Item(parsed.get("type").textValue(), parsed, new byte[0], 0, 0);
    }

    @Test
    void traceMetricIsAKnownItemType() {
        assertEquals("unsupported_item:trace_metric", ItemTypes.unsupported("trace_metric").code());
    }

    @Test
    void aLogContainerCountsAsItsItemCount() throws Exception {
        assertEquals(5, ItemTypes.count(item("""
                {"type": "log", "item_count": 5, "content_type": "application/vnd.sentry.items.log+json"}""")));
    }

    @Test
    void aTraceMetricContainerCountsAsItsItemCount() throws Exception {
        assertEquals(40, ItemTypes.count(item("""
                {"type": "trace_metric", "item_count": 40, "content_type": "application/vnd.sentry.items.trace-metric+json"}""")));
    }

    @Test
    void aSpanContainerCountsEachSpanAndAStandaloneSpanCountsOne() throws Exception {
        assertEquals(3, ItemTypes.count(item("""
                {"type": "span", "item_count": 3, "content_type": "application/vnd.sentry.items.span.v2+json"}""")));
        assertEquals(1, ItemTypes.count(item("{\"type\": \"span\"}")), "a browser's INP span: one item, one span");
    }

    @Test
    void anItemCountThatIsNoPositiveIntegerCountsOne() throws Exception {
        for (String count : new String[] {"0", "-3", "2.5", "\"7\"", "null", "true"}) {
            assertEquals(1, ItemTypes.count(item("{\"type\": \"log\", \"item_count\": " + count + "}")), count);
        }
    }

    @Test
    void anItemCountsAtMostMaxItemCount() throws Exception {
        assertEquals(ItemTypes.MAX_ITEM_COUNT, ItemTypes.count(item("{\"type\": \"log\", \"item_count\": 1000000000000}")));
        assertEquals(ItemTypes.MAX_ITEM_COUNT, ItemTypes.count(item("{\"type\": \"log\", \"item_count\": 1" + "0".repeat(40) + "}")));
    }
}
