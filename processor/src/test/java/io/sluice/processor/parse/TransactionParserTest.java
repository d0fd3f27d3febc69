package io.sluice.processor.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import io.sluice.events.EventHeaders;
import io.sluice.processor.rows.TransactionFact;

class TransactionParserTest {

    @Test
    void anOpenTelemetryStyleTransactionHasMethodUrlPathAndStatusFromTraceData() {
        TransactionFact fact = parse("{\"transaction\": \"checkout\", \"contexts\": {\"trace\": {\"data\": {"
                + "\"http.request.method\": \"post\", \"url.full\": \"https://shop.example/api/cart?x=1\", "
                + "\"http.response.status_code\": 201}}}}");
        assertEquals("POST", fact.method());
        assertEquals("https://shop.example/api/cart?x=1", fact.url());
        assertEquals("/api/cart", fact.path());
        assertEquals(201, fact.statusCode());
    }

    @Test
    void theUrlIsTraceDataUrlThenUrlFullThenHttpUrlThenRequestUrl() {
        String all = "\"url\": \"/a\", \"url.full\": \"/b\", \"http.url\": \"/c\"";
        assertEquals("/a", urlOf(all, "/d"));
        assertEquals("/b", urlOf("\"url.full\": \"/b\", \"http.url\": \"/c\"", "/d"));
        assertEquals("/c", urlOf("\"http.url\": \"/c\"", "/d"));
        assertEquals("/d", urlOf("\"other\": 1", "/d"));
    }

    @Test
    void theMethodIsTraceDataMethodThenHttpRequestMethodThenHttpMethodThenRequestMethodThenTheName() {
        assertEquals("PUT", methodOf("\"method\": \"put\", \"http.request.method\": \"post\", \"http.method\": \"head\"", "PATCH"));
        assertEquals("POST", methodOf("\"http.request.method\": \"post\", \"http.method\": \"head\"", "PATCH"));
        assertEquals("HEAD", methodOf("\"http.method\": \"head\"", "PATCH"));
        assertEquals("PATCH", methodOf("\"other\": 1", "PATCH"));
        assertEquals("DELETE", parse("{\"transaction\": \"delete /x\"}").method());
    }

    @Test
    void theStatusIsTheTagThenTheResponseContextThenTraceData() {
        assertEquals(404, parse("{\"transaction\": \"t\", \"tags\": {\"http.status_code\": 404}, \"contexts\": {"
                + "\"response\": {\"status_code\": 500}, \"trace\": {\"data\": {\"http.response.status_code\": 201}}}}").statusCode());
        assertEquals(500, parse("{\"transaction\": \"t\", \"contexts\": {"
                + "\"response\": {\"status_code\": 500}, \"trace\": {\"data\": {\"http.response.status_code\": 201}}}}").statusCode());
        assertEquals(201, parse("{\"transaction\": \"t\", \"contexts\": {"
                + "\"trace\": {\"data\": {\"http.response.status_code\": \"201\"}}}}").statusCode());
        assertNull(parse("{\"transaction\": \"t\"}").statusCode());
    }

    private static String urlOf(String traceData, String requestUrl) {
        return parse("{\"transaction\": \"t\", \"request\": {\"url\": \"" + requestUrl + "\"}, "
                + "\"contexts\": {\"trace\": {\"data\": {" + traceData + "}}}}").url();
    }

    private static String methodOf(String traceData, String requestMethod) {
        return parse("{\"transaction\": \"GET /x\", \"request\": {\"method\": \"" + requestMethod + "\"}, "
                + "\"contexts\": {\"trace\": {\"data\": {" + traceData + "}}}}").method();
    }

    static TransactionFact parse(String json) {
        return new TransactionParser(new RecordsReadFromJson()).parse(json.getBytes(StandardCharsets.UTF_8), headers(), 1_000L, 0, 0L);
    }

    static RecordHeaders headers() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(EventHeaders.EVENT_ID, "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8));
        headers.add(EventHeaders.PROJECT, "token".getBytes(StandardCharsets.UTF_8));
        return headers;
    }
}
