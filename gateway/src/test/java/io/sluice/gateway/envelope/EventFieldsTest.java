package io.sluice.gateway.envelope;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class EventFieldsTest {
    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theTopLevelTypeAndEventIdAreFoundNotNestedOnes() {
        assertEquals(new EventFields("transaction", true, -1, false, false, false),
                EventFields.scan(bytes("{\"contexts\":{\"type\":\"x\",\"event_id\":1},\"type\":\"transaction\",\"event_id\":\"ab\"}")));
        assertEquals(new EventFields(null, false, 46, false, false, false), EventFields.scan(bytes("{\"contexts\":{\"type\":\"transaction\"},\"event_id\":null}")));
        assertEquals(new EventFields(null, false, -1, false, false, false), EventFields.scan(bytes("not json")));
    }

    @Test
    void contentAfterTheObjectIsNoticed() {
        assertEquals(new EventFields(null, true, -1, false, false, true), EventFields.scan(bytes("{\"event_id\":\"ab\"}\n{\"type\":\"event\"}")));
        assertEquals(new EventFields(null, false, -1, false, false, false), EventFields.scan(bytes("{} \n")));
    }

    private static String withEventId(String json, String eventId) {
        byte[] bytes = bytes(json);
        return new String(EventFields.scan(bytes).withEventId(bytes, eventId), StandardCharsets.UTF_8);
    }

    @Test
    void anEventIdIsAddedAsTheFirstField() {
        assertEquals("{\"event_id\":\"ab\",\"message\":\"x\"}", withEventId("{\"message\":\"x\"}", "ab"));
        assertEquals(" {\"event_id\":\"ab\"  }", withEventId(" {  }", "ab"));
    }

    @Test
    void aNullEventIdIsReplacedWhereItStands() {
        assertEquals("{\"message\":\"é\",\"event_id\" :  \"ab\" ,\"extra\":{\"event_id\":null}}",
                withEventId("{\"message\":\"é\",\"event_id\" :  null ,\"extra\":{\"event_id\":null}}", "ab"));
        assertEquals("{\"event_id\":\"ab\"}", withEventId("{\"event_id\":null}", "ab"));
    }

    @Test
    void whatIsNotAnObjectIsLeftAsItIs() {
        for (String json : new String[] {"", "42", "[1]", " [{}]"}) {
            assertEquals(json, withEventId(json, "ab"));
        }
    }

    /** What one of the envelope header's values, added to an event, makes of it. */
    private interface Added {
        byte[] to(EventFields fields, byte[] json, JsonNode value);
    }

    private static String with(Added added, String json, String valueJson) throws Exception {
        return new String(added.to(EventFields.scan(bytes(json)), bytes(json), new ObjectMapper().readTree(valueJson)),
                StandardCharsets.UTF_8);
    }

    private static String withSampleRate(String json, String rateJson) throws Exception {
        return with(EventFields::withSampleRate, json, rateJson);
    }

    @Test
    void anEnvelopesSampleRateIsAddedAsTheTransactionsFirstField() throws Exception {
        assertEquals("{\"sample_rate\":\"0.25\",\"transaction\":\"GET /\"}", withSampleRate("{\"transaction\":\"GET /\"}", "\"0.25\""));
        assertEquals("{\"sample_rate\":0.5}", withSampleRate("{}", "0.5"));
    }

    @Test
    void aTransactionsOwnSampleRateIsKept() throws Exception {
        assertEquals("{\"sample_rate\":1,\"transaction\":\"GET /\"}", withSampleRate("{\"sample_rate\":1,\"transaction\":\"GET /\"}", "0.25"));
    }

    @Test
    void aSampleRateThatIsNoValueIsAddedAsTextThatIsNoNumber() throws Exception {
        assertEquals("{\"sample_rate\":\"not a number\",\"transaction\":\"GET /\"}",
                withSampleRate("{\"transaction\":\"GET /\"}", "{\"nested\": [1]}"));
    }

    private static String withRelease(String json, String releaseJson) throws Exception {
        return with(EventFields::withRelease, json, releaseJson);
    }

    @Test
    void anEnvelopesReleaseIsAddedAsTheEventsFirstField() throws Exception {
        assertEquals("{\"release\":\"shop@2.4.1\",\"message\":\"x\"}", withRelease("{\"message\":\"x\"}", "\"shop@2.4.1\""));
        assertEquals("{\"release\":\"shop@2.4.1\"}", withRelease("{}", "\"shop@2.4.1\""));
    }

    @Test
    void anEventsOwnReleaseIsKept() throws Exception {
        assertEquals("{\"release\":\"shop@2.5.0\"}", withRelease("{\"release\":\"shop@2.5.0\"}", "\"shop@2.4.1\""));
    }

    @Test
    void anEnvelopesReleaseThatIsNoTextIsNotAdded() throws Exception {
        assertEquals("{\"message\":\"x\"}", withRelease("{\"message\":\"x\"}", "{\"version\": 1}"));
        assertEquals("{\"message\":\"x\"}", withRelease("{\"message\":\"x\"}", "\"\""));
    }
}
