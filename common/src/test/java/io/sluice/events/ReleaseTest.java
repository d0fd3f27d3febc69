package io.sluice.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Where an event's release is read from, and how it travels to the processor. */
class ReleaseTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode event(String json) throws Exception {
        return JSON.readTree(json);
    }

    private static RecordHeaders withHeader(byte[] value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(FieldsHeader.NAME, value);
        return headers;
    }

    @Test
    void aTransactionsTopLevelReleaseIsRead() throws Exception {
        assertEquals("shop@2.4.1", TransactionFields.of(event("{\"transaction\": \"GET /a\", \"release\": \"shop@2.4.1\"}")).release());
    }

    @Test
    void anErrorsTopLevelReleaseIsRead() throws Exception {
        assertEquals("shop@2.4.1", ErrorFields.of(event("{\"message\": \"m\", \"release\": \"shop@2.4.1\"}")).release());
    }

    @Test
    void anEventWithoutAReleaseHasTheEmptyRelease() throws Exception {
        assertEquals("", TransactionFields.of(event("{\"transaction\": \"GET /a\"}")).release());
        assertEquals("", ErrorFields.of(event("{\"message\": \"m\"}")).release());
    }

    @Test
    void aReleaseSentAsANumberIsItsText() throws Exception {
        assertEquals("42", TransactionFields.of(event("{\"transaction\": \"GET /a\", \"release\": 42}")).release());
    }

    @Test
    void aReleaseThatIsAnObjectIsNone() throws Exception {
        assertEquals("", ErrorFields.of(event("{\"message\": \"m\", \"release\": {\"version\": \"1\"}}")).release());
    }

    @Test
    void theReleaseTravelsInTheFieldsHeader() throws Exception {
        TransactionFields transaction = TransactionFields.of(event("{\"transaction\": \"GET /a\", \"release\": \"shop@2.4.1\"}"));
        assertEquals("shop@2.4.1", TransactionFields.fromHeader(withHeader(transaction.toHeader(100_000))).release());
        ErrorFields error = ErrorFields.of(event("{\"message\": \"m\", \"release\": \"shop@2.4.1\"}"));
        assertEquals("shop@2.4.1", ErrorFields.fromHeader(withHeader(error.toHeader(100_000))).release());
    }

    /**
     * A header written before the release was read (version 3: the same fields without the last) is
     * not read as if the event had none: the processor reads the record's JSON, which has it.
     */
    @Test
    void aHeaderWrittenBeforeTheReleaseIsLeftForTheJson() throws Exception {
        TransactionFields withoutRelease = TransactionFields.of(event("{\"transaction\": \"GET /a\"}"));
        byte[] current = withoutRelease.toHeader(100_000);
        byte[] before = Arrays.copyOf(current, current.length - 3); // the release's presence byte and its empty text
        before[0] = 3;
        RecordHeaders headers = withHeader(before);
        assertNull(TransactionFields.fromHeader(headers));
        assertEquals(FieldsHeader.Unread.OTHER_VERSION, FieldsHeader.whyUnread(headers));
    }
}
