package io.sluice.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.zip.GZIPOutputStream;

/** The request body every load run sends. */
final class Payloads {
    private Payloads() {
    }

    /** A realistic transaction of about 600 bytes, as SDKs send them. */
    static byte[] transaction() {
        return ("{\"transaction\": \"GET /api/users/{id}\", \"environment\": \"production\", \"release\": \"shop@2.14.0\","
                + " \"sent_at\": \"" + Instant.now() + "\", \"platform\": \"python\","
                + " \"tags\": {\"http.status_code\": \"200\", \"server_name\": \"web-7\"},"
                + " \"sdk\": {\"name\": \"sentry.python.django\", \"version\": \"2.19.0\"},"
                + " \"contexts\": {\"trace\": {\"trace_id\": \"771a43a4192642f0b136d5159a501700\", \"span_id\": \"a0cfbde2bdff3adc\","
                + " \"op\": \"http.server\", \"status\": \"ok\", \"data\": {\"url\": \"https://shop.example/api/users/42\", \"method\": \"GET\"}},"
                + " \"runtime\": {\"name\": \"CPython\", \"version\": \"3.12.7\"}, \"os\": {\"name\": \"Linux\", \"version\": \"6.1.0\"}},"
                + " \"user\": {\"id\": \"account-4242\"}, \"request\": {\"url\": \"https://shop.example/api/users/42\", \"method\": \"GET\"}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    static byte[] gzip(byte[] body) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(body);
        }
        return out.toByteArray();
    }
}
