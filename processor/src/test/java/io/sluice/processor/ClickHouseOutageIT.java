package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.apache.kafka.streams.KafkaStreams;

import io.sluice.config.Settings;
import io.sluice.engines.ChdbDistribution;
import io.sluice.engines.ClickHouseServer;
import io.sluice.engines.Ports;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** ClickHouse goes away for a while: the sink backs off, nothing is lost, and it catches up afterwards. */
@ExtendWith(RealEngines.class)
class ClickHouseOutageIT {
    @TempDir
    Path workDir;

    @Test
    void eventsSentWhileClickHouseIsDownArriveOnceItIsBack(Engines engines) throws Exception {
        ChdbDistribution chdb = ChdbDistribution.ensureInstalled(ChdbDistribution.defaultCacheDir());
        int http = Ports.free();
        int tcp = Ports.free();
        Path data = workDir.resolve("clickhouse");
        ClickHouseServer clickHouse = ClickHouseServer.start(chdb, data, http, tcp, workDir.resolve("ch.log"));
        Map<String, String> values = PipelineSettings.forTest("outage", engines, clickHouse.httpUrl(), workDir.resolve("state"));
        TopicSetup.ensureTopics(ProcessorConfig.from(new Settings(values)).kafka());
        Instant minute = Instant.now().minusSeconds(120);
        Processor processor = Processor.start(ProcessorConfig.from(new Settings(values)));
        try (RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            for (int i = 0; i < 100; i++) {
                raw.transaction("outage.transactions", "shop", "before" + i, minute, 200);
            }
            String firstUrl = clickHouse.httpUrl();
            assertEquals("100", Await.until(Duration.ofSeconds(60), "100", () -> requests(firstUrl)));

            clickHouse.close();
            for (int i = 0; i < 100; i++) {
                raw.transaction("outage.transactions", "shop", "during" + i, minute, 500);
            }
            Thread.sleep(3_000); // the sink fails and backs off meanwhile
            assertEquals(KafkaStreams.State.RUNNING, processor.state());

            clickHouse = ClickHouseServer.start(chdb, data, http, tcp, workDir.resolve("ch.log"));
            String url = clickHouse.httpUrl();
            assertEquals("200\t100", Await.until(Duration.ofSeconds(90), "200\t100", () -> requests(url) + "\t" + errors(url)));
        } finally {
            processor.close();
            clickHouse.close();
        }
    }

    private static String requests(String url) {
        return query(url, "SELECT sum(requests) FROM sluice_outage.traffic_1m FINAL");
    }

    private static String errors(String url) {
        return query(url, "SELECT sum(status_5xx) FROM sluice_outage.traffic_1m FINAL");
    }

    private static String query(String url, String sql) {
        try {
            return java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                    url + "/?query=" + java.net.URLEncoder.encode(sql, java.nio.charset.StandardCharsets.UTF_8))).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body().strip();
        } catch (Exception e) {
            return "unreachable";
        }
    }
}
