package io.sluice.processor.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.sluice.processor.rows.ErrorFact;

/** Error reports in the shapes the gateway accepts: any JSON object. */
class ErrorParserTest {

    @Test
    void aReportWithAnEmptyExceptionListAndNoMessageIsStoredAsNoMessage() {
        ErrorFact fact = parse("{\"exception\": []}");
        assertEquals("", fact.exceptionType());
        assertEquals("(no message)", fact.exceptionValue());
        assertEquals("", fact.topFrame());
    }

    @Test
    void aReportWithAnEmptyExceptionListAndAMessageIsStoredWithTheMessage() {
        ErrorFact fact = parse("{\"exception\": [], \"message\": \"disk full\"}");
        assertEquals("", fact.exceptionType());
        assertEquals("disk full", fact.exceptionValue());
    }

    @Test
    void anEmptyObjectIsStoredAsNoMessage() {
        assertEquals("(no message)", parse("{}").exceptionValue());
    }

    private static ErrorFact parse(String json) {
        return new ErrorParser(new RecordsReadFromJson())
                .parse(json.getBytes(StandardCharsets.UTF_8), TransactionParserTest.headers(), 1_000L, 0, 0L);
    }
}
