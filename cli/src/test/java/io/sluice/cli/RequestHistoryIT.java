package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.SchemaMigrations;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * The history page's query ({@link RequestHistory}) on 300,000 requests of one project in the last
 * hour, the newest 500 of them stored twice (a sink retry): each request shows once, and the read
 * is bounded (a tenth of the rows), where the same page under FINAL reads them all.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RequestHistoryIT {
    private static final String DB = "sluice_history";
    private static final long ROWS = 300_000;
    /** Enough for the newest 1,000 rows twice (the window, then the page) in granules of 8,192 rows from each part, far from 300,000. */
    private static final long BOUNDED = 60_000;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static Engines engines;

    @BeforeAll
    static void history(Engines realEngines) throws Exception {
        engines = realEngines;
        ClickHouseSettings settings = new ClickHouseSettings(engines.clickHouseUrl(), engines.clickHouseUser(),
                engines.clickHousePassword(), DB, 90);
        try (var client = ClickHouseClients.create(settings)) {
            SchemaMigrations.apply(client, settings);
        }
        String end = Long.toString(System.currentTimeMillis());
        // One request every 10 ms up to now; every 1,000th a 503; route by the number's last digit.
        String rows = "SELECT toString(number) AS event_id, 'shop' AS project, "
                + "fromUnixTimestamp64Milli({end_ms:Int64} - 10 * ({rows:UInt64} - number), 'UTC') AS timestamp, timestamp AS received_at, "
                + "concat('GET /items/', toString(number % 10)) AS route, 'GET' AS method, "
                + "toUInt16(if(number % 1000 = 0, 503, 200)) AS status_code FROM numbers({rows:UInt64})";
        ClickHouseQuery.run(engines, "INSERT INTO " + DB + ".transactions (event_id, project, timestamp, received_at, route, method, "
                + "status_code) " + rows, Map.of("rows", Long.toString(ROWS), "end_ms", end));
        // The sink's retry: the newest 500 rows again, in a part of their own.
        ClickHouseQuery.run(engines, "INSERT INTO " + DB + ".transactions (event_id, project, timestamp, received_at, route, method, "
                + "status_code) SELECT * FROM (" + rows + ") WHERE toUInt64(event_id) >= {rows:UInt64} - 500",
                Map.of("rows", Long.toString(ROWS), "end_ms", end));
    }

    @Test
    void theLast100ShowEachRequestOnceThoughTheNewestAreStoredTwice() {
        String shown = history("", 0, 100);
        assertEquals(100, shown.lines().count());
        assertEquals(100, shown.lines().map(line -> line.split("\t")[1]).distinct().count(), shown);
        assertEquals(Long.toString(ROWS - 1), shown.lines().findFirst().orElseThrow().split("\t")[1]);
        assertEquals(Long.toString(ROWS - 100), shown.lines().reduce((a, b) -> b).orElseThrow().split("\t")[1]);
    }

    @Test
    void theReadIsBoundedByTheWindowOfTheNewestRows() throws Exception {
        long read = rowsRead(RequestHistory.sql(DB), parameters("", 0, 100));
        assertTrue(read <= BOUNDED, read + " rows read");
        // The same page the way the dashboard used to read it: the whole range under FINAL.
        long readUnderFinal = rowsRead("SELECT event_id FROM " + DB + ".transactions FINAL WHERE project = 'shop' "
                + "AND timestamp >= now() - INTERVAL 1 DAY ORDER BY timestamp DESC LIMIT 100", Map.of());
        assertEquals(ROWS + 500, readUnderFinal);
    }

    @Test
    void aStatusCodeFilterShowsOnlyThatCodeNewestFirst() {
        String shown = history("", 503, 100);
        assertEquals(100, shown.lines().count());
        assertTrue(shown.lines().allMatch(line -> line.split("\t")[7].equals("503")), shown);
        assertEquals(Long.toString(ROWS - 1000), shown.lines().findFirst().orElseThrow().split("\t")[1]);
    }

    @Test
    void aRouteFilterShowsOnlyThatRouteOnceEach() {
        String shown = history("GET /items/7", 0, 100);
        assertEquals(100, shown.lines().count());
        assertEquals(100, shown.lines().map(line -> line.split("\t")[1]).distinct().count(), shown);
        assertTrue(shown.lines().allMatch(line -> line.split("\t")[3].equals("GET /items/7")), shown);
    }

    private static String history(String route, int status, int limit) {
        return ClickHouseQuery.run(engines, RequestHistory.sql(DB), parameters(route, status, limit));
    }

    private static Map<String, String> parameters(String route, int status, int limit) {
        return Map.of("project", "shop", "route", route, "status", Integer.toString(status), "limit", Integer.toString(limit),
                "window", Integer.toString(limit * RequestHistory.WINDOW_PER_ROW));
    }

    /** The rows ClickHouse read to answer (its X-ClickHouse-Summary, sent once the query has ended). */
    private static long rowsRead(String sql, Map<String, String> parameters) throws Exception {
        StringBuilder url = new StringBuilder(engines.clickHouseUrl() + "/?wait_end_of_query=1&query="
                + URLEncoder.encode(sql, StandardCharsets.UTF_8));
        parameters.forEach((name, value) -> url.append("&param_").append(name).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        HttpRequest request = HttpRequest.newBuilder(URI.create(url.toString()))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        (engines.clickHouseUser() + ":" + engines.clickHousePassword()).getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        JsonNode summary = new ObjectMapper().readTree(response.headers().firstValue("X-ClickHouse-Summary").orElseThrow());
        return summary.get("read_rows").asLong();
    }
}
