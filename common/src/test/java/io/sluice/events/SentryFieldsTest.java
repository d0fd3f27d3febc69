package io.sluice.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
    }

    @Test
    void aReportWithoutMessageHasNoMessage() {
        assertEquals("(no message)", SentryFields.message(event("{}")));
        assertEquals("(no message)", SentryFields.message(event("{\"exception\": []}")));
        assertEquals("(no message)", SentryFields.message(event("{\"message\": {\"params\": []}}")));
    }

    @Test
    void aBlankMessageStringGivesWayToTheLogentry() {
        assertEquals("from logentry", SentryFields.message(event("{\"message\": \" \", \"logentry\": {\"formatted\": \"from logentry\"}}")));
        assertEquals("(no message)", SentryFields.message(event("{\"message\": \" \"}")));
    }
}
