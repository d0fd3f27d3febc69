package io.sluice.processor.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.StringJoiner;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.events.ErrorFields;
import io.sluice.events.FieldsHeader;
import io.sluice.events.FieldsHeader.Unread;
import io.sluice.events.InvalidFieldException;
import io.sluice.events.TransactionFields;
import io.sluice.processor.parse.RecordsReadFromJson.Kind;
import io.sluice.processor.rows.Columns;
import io.sluice.processor.rows.ErrorFact;
import io.sluice.processor.rows.TransactionFact;

/**
 * A record's fields as the gateway read them ({@link FieldsHeader}) make the very fact its JSON
 * makes, so records from older gateways (no header) and newer ones are stored alike; and with the
 * header the JSON is not read again; without it (or with one it cannot read) the record is counted, by why.
 */
class GatewayFieldsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LONG = "x".repeat(20_000);
    /** Room for the fields header, which takes no more than the event's JSON. */
    private static final String PADDING = "p".repeat(400);
    private static final List<String> TRANSACTIONS = List.of(
            "{\"transaction\": \"GET /api/users/{id}\", \"environment\": \"production\", \"tags\": {\"http.status_code\": \"200\"},"
                    + " \"sdk\": {\"name\": \"sentry.python.django\", \"version\": \"2.19.0\"}, \"contexts\": {\"trace\": {\"data\":"
                    + " {\"url\": \"https://shop.example/api/users/42\", \"method\": \"GET\"}}, \"runtime\": {\"name\": \"CPython\","
                    + " \"version\": \"3.12.7\"}, \"os\": {\"name\": \"Linux\", \"version\": \"6.1.0\"}}, \"user\": {\"id\": \"account-4242\"}}",
            "{\"transaction\": \"checkout\", \"contexts\": {\"trace\": {\"data\": {\"http.request.method\": \"post\","
                    + " \"url.full\": \"https://shop.example/api/cart?x=1\", \"http.response.status_code\": 201}}}}",
            "{\"transaction\": \"\\ud800 GET\", \"environment\": \"\\udfff\", \"user\": {\"id\": \"\\ud83d\"}, \"tags\": [[\"http.status_code\", 503]]}",
            "{\"transaction\": \"POST /\\u0000\\u0007\", \"request\": {\"url\": \"/a?b#c\", \"method\": 7}, \"environment\": 42}",
            "{\"transaction\": \"GET /big\", \"request\": {\"url\": \"https://h/" + LONG + "\"}}",
            "{\"transaction\": \"" + "é".repeat(9_000) + "\", \"sdk\": {\"name\": [1, 2], \"version\": {\"a\": 1}}}",
            "{\"transaction\": \"delete /x\", \"contexts\": {\"response\": {\"status_code\": 404}}, \"user\": null, \"sdk\": null}",
            "{\"transaction\": \"GET /a\", \"release\": \"shop@2.4.1\", \"extra\": {\"note\": \"" + PADDING + "\"}}",
            "{\"transaction\": \"GET /b\", \"release\": \"\\ud800" + "r".repeat(300) + "\", \"extra\": {\"note\": \"" + PADDING + "\"}}");
    private static final List<String> ERRORS = List.of(
            "{\"level\": \"ERROR\", \"exception\": {\"values\": [{\"type\": \"ValueError\", \"value\": \"bad\", \"stacktrace\":"
                    + " {\"frames\": [{\"function\": \"f\", \"filename\": \"a.py\", \"lineno\": 1}]}}]}}",
            "{\"exception\": []}",
            "{}",
            "{\"message\": {\"formatted\": \"\\ud800 formatted\"}, \"request\": {\"url\": \"" + LONG + "\", \"method\": \"get\"}}",
            "{\"logentry\": {\"message\": \"m\"}, \"level\": 3, \"exception\": [{\"type\": \"\\udfff\", \"value\": null}]}",
            "{\"message\": \"m\", \"release\": \"shop@2.4.1\", \"extra\": {\"note\": \"" + PADDING + "\"}}");

    private final RecordsReadFromJson readFromJson = new RecordsReadFromJson();

    @Test
    void everyTransactionMakesTheSameFactFromTheGatewaysFieldsAsFromItsJson() throws Exception {
        int withHeader = 0;
        for (String json : TRANSACTIONS) {
            byte[] fields = TransactionFields.of(JSON.readTree(json)).toHeader(json.length());
            if (fields != null) {
                withHeader++;
            }
            assertEquals(transaction(json, null), transaction(json, fields), json.length() > 200 ? json.substring(0, 200) : json);
        }
        assertEquals(TRANSACTIONS.size() - 2, withHeader, "all but the two with over 16 KiB of fields carry the header");
    }

    @Test
    void everyErrorReportMakesTheSameFactFromTheGatewaysFieldsAsFromItsJson() throws Exception {
        for (String json : ERRORS) {
            byte[] fields = ErrorFields.of(JSON.readTree(json)).toHeader(json.length());
            assertEquals(error(json, null), error(json, fields), json.length() > 200 ? json.substring(0, 200) : json);
        }
    }

    @Test
    void withTheGatewaysFieldsTheJsonIsNotReadAgain() throws Exception {
        byte[] fields = TransactionFields.of(JSON.readTree(TRANSACTIONS.get(0))).toHeader(TRANSACTIONS.get(0).length());
        TransactionFact fact = transaction("not JSON at all", fields);
        assertEquals("GET /api/users/{id}", fact.transaction());
        assertEquals(200, fact.statusCode());
    }

    @Test
    void theReleaseIsStoredAsTheGatewayReadIt() throws Exception {
        String json = TRANSACTIONS.get(7);
        assertEquals("shop@2.4.1", transaction("not JSON at all", transactionHeader(json)).release());
        assertEquals("shop@2.4.1", error("not JSON at all", errorHeader(ERRORS.get(5))).release());
    }

    @Test
    void aReleaseIsCutToItsColumnAndMadeValid() {
        assertEquals("\ufffd" + "r".repeat(Columns.RELEASE - 1), transaction(TRANSACTIONS.get(8), null).release());
    }

    @Test
    void aTransactionWithoutAReleaseHasTheEmptyRelease() {
        assertEquals("", transaction(TRANSACTIONS.get(1), null).release());
    }

    /** A header of version 3: the fields of this version but the last, the release, which it did not read. */
    @Test
    void aRecordWrittenBeforeTheReleaseWasReadIsReadWithItsReleaseFromItsJson() throws Exception {
        String json = "{\"transaction\": \"GET /a\", \"release\": \"shop@2.4.1\"}";
        byte[] current = new TransactionFields("", "GET /a", "GET", "", "/a", null, "", "", "", "", "", "", "", "GET /a", "", null,
                io.sluice.events.SampleRate.NONE, "").toHeader(1_000);
        byte[] before = java.util.Arrays.copyOf(current, current.length - 3); // the release's presence byte and empty text
        before[0] = 3;
        assertEquals("shop@2.4.1", transaction(json, before).release());
        assertEquals("transaction/other_version=1", counted());
    }

    @Test
    void aRecordFromAnOlderGatewayIsReadFromItsJson() {
        assertEquals("checkout", transaction(TRANSACTIONS.get(1), null).transaction());
    }

    @Test
    void aStatusTheGatewayWouldRefuseIsStillRefusedFromTheJson() throws Exception {
        String json = "{\"transaction\": \"t\", \"tags\": {\"http.status_code\": 99}}";
        JsonNode event = JSON.readTree(json);
        assertNotNull(org.junit.jupiter.api.Assertions.assertThrows(InvalidFieldException.class, () -> TransactionFields.of(event)));
        org.junit.jupiter.api.Assertions.assertThrows(UnprocessableRecordException.class, () -> transaction(json, null));
    }

    @Test
    void aRecordWithTheGatewaysFieldsIsNotCountedAsReadFromItsJson() throws Exception {
        transaction(TRANSACTIONS.get(0), transactionHeader(TRANSACTIONS.get(0)));
        error(ERRORS.get(0), errorHeader(ERRORS.get(0)));
        assertEquals("", counted());
    }

    @Test
    void aRecordWithoutTheHeaderIsCountedAsReadFromItsJsonByItsKind() {
        transaction(TRANSACTIONS.get(0), null);
        error(ERRORS.get(0), null);
        error(ERRORS.get(1), null);
        assertEquals("transaction/no_header=1 error/no_header=2", counted());
    }

    @Test
    void aHeaderOfAnotherVersionIsCountedAsSuch() throws Exception {
        byte[] next = transactionHeader(TRANSACTIONS.get(0));
        next[0]++; // the version byte, as a gateway that reads events another way writes it
        transaction(TRANSACTIONS.get(0), next);
        assertEquals("transaction/other_version=1", counted());
    }

    @Test
    void aHeaderOfThisVersionItCannotReadIsCountedAsUnreadable() throws Exception {
        transaction(TRANSACTIONS.get(0), errorHeader(ERRORS.get(0))); // another kind's fields
        assertEquals("transaction/unreadable=1", counted());
    }

    /** The counts that are not zero, as kind/reason=count. */
    private String counted() {
        StringJoiner counts = new StringJoiner(" ");
        for (Kind kind : Kind.values()) {
            for (Unread why : Unread.values()) {
                long count = readFromJson.count(kind, why);
                if (count != 0) {
                    counts.add(kind.tag() + "/" + why.tag() + "=" + count);
                }
            }
        }
        return counts.toString();
    }

    private static byte[] transactionHeader(String json) throws Exception {
        return TransactionFields.of(JSON.readTree(json)).toHeader(json.length());
    }

    private static byte[] errorHeader(String json) throws Exception {
        return ErrorFields.of(JSON.readTree(json)).toHeader(json.length());
    }

    private TransactionFact transaction(String json, byte[] fields) {
        return new TransactionParser(readFromJson).parse(json.getBytes(StandardCharsets.UTF_8), headers(fields), 1_000L, 0, 0L);
    }

    private ErrorFact error(String json, byte[] fields) {
        return new ErrorParser(readFromJson).parse(json.getBytes(StandardCharsets.UTF_8), headers(fields), 1_000L, 0, 0L);
    }

    private static RecordHeaders headers(byte[] fields) {
        RecordHeaders headers = TransactionParserTest.headers();
        if (fields != null) {
            headers.add(FieldsHeader.NAME, fields);
        }
        return headers;
    }
}
