package io.sluice.gateway.envelope;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class EventFieldsTest {
    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theTopLevelTypeAndEventIdAreFoundNotNestedOnes() {
        assertEquals(new EventFields("transaction", true, false),
                EventFields.scan(bytes("{\"contexts\":{\"type\":\"x\",\"event_id\":1},\"type\":\"transaction\",\"event_id\":\"ab\"}")));
        assertEquals(new EventFields(null, true, false), EventFields.scan(bytes("{\"contexts\":{\"type\":\"transaction\"},\"event_id\":null}")));
        assertEquals(new EventFields(null, false, false), EventFields.scan(bytes("not json")));
    }

    @Test
    void contentAfterTheObjectIsNoticed() {
        assertEquals(new EventFields(null, true, true), EventFields.scan(bytes("{\"event_id\":\"ab\"}\n{\"type\":\"event\"}")));
        assertEquals(new EventFields(null, false, false), EventFields.scan(bytes("{} \n")));
    }

    @Test
    void anEventIdIsAddedAsTheFirstField() {
        assertEquals("{\"event_id\":\"ab\",\"message\":\"x\"}",
                new String(EventFields.withEventId(bytes("{\"message\":\"x\"}"), "ab"), StandardCharsets.UTF_8));
        assertEquals(" {\"event_id\":\"ab\"  }", new String(EventFields.withEventId(bytes(" {  }"), "ab"), StandardCharsets.UTF_8));
    }

    @Test
    void whatIsNotAnObjectIsLeftAsItIs() {
        for (String json : new String[] {"", "42", "[1]", " [{}]"}) {
            assertEquals(json, new String(EventFields.withEventId(bytes(json), "ab"), StandardCharsets.UTF_8));
        }
    }
}
