package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.engines.ChdbDistribution;
import io.sluice.engines.ClickHouseServer;
import io.sluice.engines.Ports;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/** The sink cannot write for longer than SLUICE_SINK_STALL_TIMEOUT: /readyz says so, and recovers with ClickHouse. */
@ExtendWith(RealEngines.class)
class SinkStallIT {
    @TempDir
    Path workDir;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void readinessFailsWithTheReasonWhileTheSinkIsStalledAndReturnsWhenRowsAreInserted(Engines engines) throws Exception {
        ChdbDistribution chdb = ChdbDistribution.ensureInstalled(ChdbDistribution.defaultCacheDir());
        int http = Ports.free();
        int tcp = Ports.free();
        Path data = workDir.resolve("clickhouse");
        ClickHouseServer clickHouse = ClickHouseServer.start(chdb, data, http, tcp, workDir.resolve("ch.log"));
        Map<String, String> values = TestSettings.isolated("stall", engines, workDir.resolve("state"))
                .with("SLUICE_CLICKHOUSE_URL", clickHouse.httpUrl()).toMap();
        values.put("SLUICE_SINK_STALL_TIMEOUT", "3s");
        Instant minute = Instant.now().minusSeconds(120);
        ProcessorService processor = ProcessorService.start(ProcessorConfig.from(new Settings(values)));
        try (RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            String url = clickHouse.httpUrl();
            for (int i = 0; i < 10; i++) {
                raw.transaction("stall.transactions", "shop", "before" + i, minute, 200);
            }
            assertEquals("10", Await.until(Duration.ofSeconds(60), "10", () -> requests(url)));
            String readyz = "http://127.0.0.1:" + processor.adminPort() + "/readyz";
            assertEquals(200, Await.until(Duration.ofSeconds(30), 200, () -> get(readyz).statusCode()));

            clickHouse.close();
            for (int i = 0; i < 10; i++) {
                raw.transaction("stall.transactions", "shop", "during" + i, minute, 200);
            }
            assertEquals(503, Await.until(Duration.ofSeconds(60), 503, () -> get(readyz).statusCode()));
            String body = get(readyz).body();
            assertTrue(body.matches("\\{\"status\":\"not_ready\",\"streams\":\"RUNNING\",\"reasons\":\\[\"sink stalled for \\d+ s: inserting into "
                    + "sluice_stall\\.[a-z_0-9]+: .*\"]}"), body);
            String metrics = get("http://127.0.0.1:" + processor.adminPort() + "/metrics").body();
            assertTrue(metrics.contains("\nsluice_sink_stalled 1.0\n"), metrics);

            clickHouse = ClickHouseServer.start(chdb, data, http, tcp, workDir.resolve("ch.log"));
            assertEquals(200, Await.until(Duration.ofSeconds(90), 200, () -> get(readyz).statusCode()));
            assertEquals("20", Await.until(Duration.ofSeconds(60), "20", () -> requests(url)));
            assertTrue(get("http://127.0.0.1:" + processor.adminPort() + "/metrics").body().contains("\nsluice_sink_stalled 0.0\n"));
        } finally {
            processor.close();
            clickHouse.close();
        }
    }

    private static String requests(String url) {
        try {
            return get(url + "/?query=" + java.net.URLEncoder.encode("SELECT sum(requests) FROM sluice_stall.traffic_1m FINAL",
                    java.nio.charset.StandardCharsets.UTF_8)).body().strip();
        } catch (RuntimeException e) {
            return "unreachable";
        }
    }

    private static HttpResponse<String> get(String url) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException("cannot GET " + url, e);
        }
    }
}
