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

    @Test
    void aLogEntryWithParamsIsFormattedPythonStyle() {
        assertEquals("second arg1", SentryFields.message(event("{\"logentry\": {\"message\": \"second %s\", \"params\": [\"arg1\"]}}")));
        assertEquals("3 of 4.50 at 100%: None? null",
                SentryFields.message(event("{\"logentry\": {\"message\": \"%d of %.2f at 100%%: None? %s\", \"params\": [3, 4.5, null]}}")));
        assertEquals("hello, world!", SentryFields.message(event("{\"message\": {\"message\": \"hello, %(name)s!\", \"params\": {\"name\": \"world\"}}}")));
        assertEquals("[  7] ff", SentryFields.message(event("{\"logentry\": {\"message\": \"[%3d] %x\", \"params\": [7, 255]}}")));
    }

    @Test
    void aLogEntryWithParamsIsFormattedCurlyStyle() {
        assertEquals("second arg1 and 2", SentryFields.message(event("{\"logentry\": {\"message\": \"second {} and {}\", \"params\": [\"arg1\", 2]}}")));
        assertEquals("b a", SentryFields.message(event("{\"logentry\": {\"message\": \"{1} {0}\", \"params\": [\"a\", \"b\"]}}")));
        assertEquals("user 42", SentryFields.message(event("{\"logentry\": {\"message\": \"user {id}\", \"params\": {\"id\": 42}}}")));
    }

    @Test
    void aLogEntryItsParamsDoNotFitIsKeptUnformatted() {
        assertEquals("%s and %s", SentryFields.message(event("{\"logentry\": {\"message\": \"%s and %s\", \"params\": [\"one\"]}}")));
        assertEquals("%d", SentryFields.message(event("{\"logentry\": {\"message\": \"%d\", \"params\": [\"not a number\"]}}")));
        assertEquals("{} left open {", SentryFields.message(event("{\"logentry\": {\"message\": \"{} left open {\", \"params\": [1]}}")));
        assertEquals("second %s", SentryFields.message(event("{\"logentry\": {\"message\": \"second %s\"}}")));
        assertEquals("second %s", SentryFields.message(event("{\"logentry\": {\"message\": \"second %s\", \"params\": \"arg1\"}}")));
    }

    @Test
    void aFormattedMessageTheSdkSentWinsOverItsParams() {
        assertEquals("as sent", SentryFields.message(event("{\"logentry\": {\"message\": \"%s\", \"params\": [\"x\"], \"formatted\": \"as sent\"}}")));
    }

    @Test
    void aFormattedMessageIsBoundedWhateverItsParams() {
        String huge = "x".repeat(100_000);
        String message = SentryFields.message(event("{\"logentry\": {\"message\": \"" + "%s".repeat(1_000) + "\", \"params\": ["
                + String.join(",", java.util.Collections.nCopies(1_000, "\"" + huge + "\"")) + "]}}"));
        assertEquals(LogEntryFormat.MAX_LENGTH, message.length());
        assertEquals(LogEntryFormat.MAX_LENGTH, SentryFields.message(event("{\"logentry\": {\"message\": \"%99999999s\", \"params\": [1]}}")).length());
    }

    @Test
    void aFormattedMessageNeverSplitsASurrogatePairAtItsLimit() {
        String message = SentryFields.message(event("{\"logentry\": {\"message\": \"x%s\", \"params\": [\"" + "\\ud83d\\ude00".repeat(5_000) + "\"]}}"));
        assertEquals(LogEntryFormat.MAX_LENGTH - 1, message.length());
        assertEquals("\ud83d\ude00", message.substring(message.length() - 2));
    }

    @Test
    void anErrorReportWithoutLevelIsAnError() {
        assertEquals("error", ErrorFields.of(event("{\"message\": \"m\"}")).level());
        assertEquals("error", ErrorFields.of(event("{\"message\": \"m\", \"level\": \"\"}")).level());
        assertEquals("warning", ErrorFields.of(event("{\"message\": \"m\", \"level\": \"WARNING\"}")).level());
    }

    @Test
    void aTransactionsOpIsReadAsSent() {
        assertEquals("pageload", TransactionFields.of(event("{\"transaction\": \"/\", \"contexts\": {\"trace\": {\"op\": \"pageload\"}}}")).op());
        assertEquals("http.server", TransactionFields.of(event("{\"transaction\": \"/\", \"contexts\": {\"trace\": {\"op\": \"http.server\"}}}")).op());
        assertEquals("", TransactionFields.of(event("{\"transaction\": \"/\"}")).op());
    }
}
