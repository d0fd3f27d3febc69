package io.sluice.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The shapes of error reports, as both the gateway's validator and the processor's parser read them. */
class SentryFieldsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode event(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void theReportedExceptionIsTheLastOfTheValuesOrOfABareList() {
        String chain = "[{\"type\": \"IOError\"}, {\"type\": \"AppError\", \"stacktrace\": {\"frames\": "
                + "[{\"function\": \"main\", \"filename\": \"app.py\"}, {\"function\": \"load\", \"module\": \"app.io\", \"lineno\": 7}]}}]";
        for (JsonNode event : new JsonNode[] {event("{\"exception\": {\"values\": " + chain + "}}"), event("{\"exception\": " + chain + "}")}) {
            JsonNode reported = SentryFields.reportedException(event);
            assertEquals("AppError", reported.get("type").textValue());
            assertEquals("load (app.io:7)", SentryFields.topFrame(reported));
        }
        assertNull(SentryFields.exceptions(event("{\"exception\": {\"values\": []}}")));
        assertNull(SentryFields.reportedException(event("{\"exception\": \"boom\"}")));
        assertEquals("", SentryFields.topFrame(null));
    }

    @Test
    void theMessageIsAStringOrTheFirstNonEmptyOfMessageAndLogentryFields() {
        assertEquals("plain", SentryFields.message(event("{\"message\": \"plain\"}")));
        assertEquals("formatted", SentryFields.message(event("{\"message\": {\"message\": \"raw %s\", \"formatted\": \"formatted\"}}")));
        assertEquals("raw %s", SentryFields.message(event("{\"message\": {\"message\": \"raw %s\"}}")));
        assertEquals("from logentry", SentryFields.message(event("{\"message\": {}, \"logentry\": {\"message\": \"from logentry\"}}")));
        assertEquals("", SentryFields.message(event("{}")));
    }

    @Test
    void aReportHasAMessageWhenItsStringIsNotBlankOrAnObjectCarriesOne() {
        assertTrue(SentryFields.hasMessage(event("{\"message\": \"boom\"}")));
        assertTrue(SentryFields.hasMessage(event("{\"message\": {\"formatted\": \"boom\"}}")));
        assertTrue(SentryFields.hasMessage(event("{\"message\": \" \", \"logentry\": {}}")));
        assertFalse(SentryFields.hasMessage(event("{\"message\": \" \"}")));
        assertFalse(SentryFields.hasMessage(event("{\"message\": {\"params\": []}}")));
    }
}
