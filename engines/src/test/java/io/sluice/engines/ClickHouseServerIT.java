package io.sluice.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ClickHouseServerIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dataDir;

    @Test
    void servesVersion26AndKeepsTablesAcrossRestart() throws Exception {
        ChdbDistribution chdb = ChdbDistribution.ensureInstalled(ChdbDistribution.defaultCacheDir());
        int http = Ports.free();
        int tcp = Ports.free();
        try (ClickHouseServer server = ClickHouseServer.start(chdb, dataDir.resolve("data"), http, tcp, dataDir.resolve("ch.log"))) {
            assertEquals("26.7", query(server, "SELECT substring(version(), 1, 4)"));
            query(server, "CREATE TABLE kept (n UInt32) ENGINE = MergeTree ORDER BY n");
            query(server, "INSERT INTO kept VALUES (1), (2), (3)");
        }
        try (ClickHouseServer restarted = ClickHouseServer.start(chdb, dataDir.resolve("data"), http, tcp, dataDir.resolve("ch.log"))) {
            assertEquals("6", query(restarted, "SELECT sum(n) FROM kept"));
        }
    }

    private static String query(ClickHouseServer server, String sql) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.httpUrl() + "/?query="
                + URLEncoder.encode(sql, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body().strip();
    }
}
