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
            2, "c3adc062c11775f945aeed2504eced0bf3e6372ec6d43777dc2d8fc3f1bbaadb",
            3, "6ac1fabd8e62fb94f5567717126ff76d68be09ef3b9e0c6427d17aa43a7a64d3",
            4, "aaa215dfe3c9eafd8d2001953617631728d4c6b72d78f7146de74a58922f196c",
            5, "8db7a327f2fac4870ae3a7f80598ad1bc00367a8d54737398a2b1e9cd3a26b47");
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
            "{\"transaction\": \"PATCH relative/path\", \"request\": {\"url\": \"mailto:a@b\"}, \"sdk\": null}",
            "{\"transaction\": \"/orders/<int:id>\", \"transaction_info\": {\"source\": \"route\"}, \"request\": {\"method\": \"PUT\","
                    + " \"url\": \"https://h/orders/7\"}, \"contexts\": {\"trace\": {\"op\": \"http.server\"}},"
                    + " \"start_timestamp\": 1700000000.25, \"timestamp\": 1700000001.5}",
            "{\"transaction\": \"GET /users/0f8fad5b-d9cb-469f-a165-70867728950e/2024-01-31\", \"transaction_info\": {\"source\": \"url\"},"
                    + " \"contexts\": {\"trace\": {\"op\": \"pageload\"}}, \"start_timestamp\": \"2024-01-31T10:00:00Z\","
                    + " \"timestamp\": \"2024-01-31T10:00:00.125Z\"}",
            "{\"transaction\": \"GET /users/42\", \"contexts\": {\"trace\": {\"data\": {\"http.route\": \"/users/:id\"}}}}",
            "{\"transaction\": \"GET /a\", \"sample_rate\": \"0.25\"}",
            "{\"transaction\": \"GET /b\", \"contexts\": {\"trace\": {\"data\": {\"sentry.sample_rate\": 0.1}}}}",
            "{\"transaction\": \"GET /c\", \"sample_rate\": 1.5}",
            "{\"transaction\": \"GET /d\", \"release\": \"shop@2.4.1\"}",
            "{\"transaction\": \"GET /e\", \"release\": 7}",
            "{\"transaction\": \"GET /f\", \"start_timestamp\": \"2024-01-31T11:00:00+0100\", \"timestamp\": \"2024-01-31T10:00:00.5Z\"}");
    private static final List<String> ERRORS = List.of(
            "{\"level\": \"ERROR\", \"exception\": {\"values\": [{\"type\": \"KeyError\", \"value\": \"'id'\", \"stacktrace\": {\"frames\":"
                    + " [{\"function\": \"outer\", \"filename\": \"a.py\", \"lineno\": 1}, {\"function\": \"load\", \"module\": \"app\","
                    + " \"lineno\": 3.0}]}}]}, \"request\": {\"url\": \"https://h/p\", \"method\": \"post\"}}",
            "{\"exception\": [{\"type\": \"A\"}, {\"type\": \"B\", \"value\": 12}]}",
            "{\"message\": {\"formatted\": \"formatted \\ud83d\"}, \"level\": 3}",
            "{\"logentry\": {\"message\": \"m\"}}",
            "{\"logentry\": {\"message\": \"second %s\", \"params\": [\"arg1\"]}, \"level\": \"warning\", \"transaction\": \"GET /a/1\"}",
            "{\"logentry\": {\"message\": \"{} of {}\", \"params\": [3, null]}, \"request\": {\"url\": \"/users/42?x\"}}",
            "{\"message\": \"\"}",
            "{}",
            "{\"message\": \"m\", \"release\": \"shop@2.4.1\"}");

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
