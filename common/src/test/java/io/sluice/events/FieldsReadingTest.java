package io.sluice.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What {@link FieldsHeader#VERSION} reads from a fixed set of events, pinned: when the reading
 * changes (here, in {@link SentryFields}, or with a new Jackson), this fails, and the version must
 * be raised, so that the processor stops trusting headers an older reading wrote (a recomputation
 * would otherwise repeat the old reading). Then pin the new digest under the new version.
 */
class FieldsReadingTest {
    private static final Map<Integer, String> DIGEST_BY_VERSION = Map.of(
            1, "5c6d837f0dc91d13d700b84e79221b0e23bd2080f3ede11536d6a6027afa5e0c",
            2, "d8a21bd8ef79d3e0349ce3cb7983991ddd3cc73feadd1db80046c60606fd1498");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> TRANSACTIONS = List.of(
            "{\"transaction\": \"GET /api/users/{id}\", \"environment\": \"production\", \"tags\": {\"http.status_code\": \"200\"},"
                    + " \"sdk\": {\"name\": \"sentry.python\", \"version\": \"2.19.0\"}, \"contexts\": {\"trace\": {\"data\":"
                    + " {\"url\": \"https://shop.example/api/users/42?x=1#f\", \"method\": \"get\"}}, \"runtime\": {\"name\": \"CPython\","
                    + " \"version\": \"3.12.7\"}, \"os\": {\"name\": \"Linux\", \"version\": 6.1}}, \"user\": {\"id\": 4242}}",
            "{\"transaction\": \"checkout\", \"contexts\": {\"trace\": {\"data\": {\"http.request.method\": \"post\","
                    + " \"url.full\": \"/api/cart\", \"http.response.status_code\": \" 201 \"}}}}",
            "{\"transaction\": \"delete /x\", \"tags\": [[\"http.status_code\", \"503\"]], \"request\": {\"url\": \"//cdn/x\", \"method\": 7}}",
            "{\"transaction\": \"\\ud800 ΐ\", \"environment\": true, \"user\": {\"id\": 1.5e3}, \"contexts\": {\"response\": {\"status_code\": 404}}}",
            "{\"transaction\": \"PATCH relative/path\", \"request\": {\"url\": \"mailto:a@b\"}, \"sdk\": null}");
    private static final List<String> ERRORS = List.of(
            "{\"level\": \"ERROR\", \"exception\": {\"values\": [{\"type\": \"KeyError\", \"value\": \"'id'\", \"stacktrace\": {\"frames\":"
                    + " [{\"function\": \"outer\", \"filename\": \"a.py\", \"lineno\": 1}, {\"function\": \"load\", \"module\": \"app\","
                    + " \"lineno\": 3.0}]}}]}, \"request\": {\"url\": \"https://h/p\", \"method\": \"post\"}}",
            "{\"exception\": [{\"type\": \"A\"}, {\"type\": \"B\", \"value\": 12}]}",
            "{\"message\": {\"formatted\": \"formatted \\ud83d\"}, \"level\": 3}",
            "{\"logentry\": {\"message\": \"m\"}}",
            "{\"message\": \"\"}",
            "{}");

    @Test
    void whatThisVersionReadsIsPinned() throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        for (String json : TRANSACTIONS) {
            digest.update(TransactionFields.of(JSON.readTree(json)).toHeader(100_000));
        }
        for (String json : ERRORS) {
            digest.update(ErrorFields.of(JSON.readTree(json)).toHeader(100_000));
        }
        assertEquals(DIGEST_BY_VERSION.get((int) FieldsHeader.VERSION), HexFormat.of().formatHex(digest.digest()),
                "the fields read from these events changed: raise FieldsHeader.VERSION and pin this digest under it");
    }
}
