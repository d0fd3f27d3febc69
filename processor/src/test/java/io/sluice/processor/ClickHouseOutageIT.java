package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.apache.kafka.streams.KafkaStreams;

import io.sluice.config.Settings;
import io.sluice.engines.ChdbDistribution;
import io.sluice.engines.ClickHouseServer;
import io.sluice.engines.Ports;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.Await;
import io.sluice.testkit.DeliveryReport;
import io.sluice.testkit.Engines;
import io.sluice.testkit.HttpText;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/** ClickHouse goes away for a while: the sink backs off, nothing is lost, and it catches up afterwards. */
@ExtendWith(RealEngines.class)
@Timeout(300)
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
        Map<String, String> values = TestSettings.isolated("outage", engines, workDir.resolve("state"))
                .with("SLUICE_CLICKHOUSE_URL", clickHouse.httpUrl()).toMap();
        TopicSetup.ensureTopics(ProcessorConfig.from(new Settings(values)).kafka());
        Instant minute = Instant.now().minusSeconds(120);
        ProcessorService processor = ProcessorService.start(ProcessorConfig.from(new Settings(values)));
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
            // The outage really hit the sink: at least one insert failed (how many depends on the backoff).
            String metrics = "http://127.0.0.1:" + processor.adminPort() + "/metrics";
            Await.until("a failed insert while ClickHouse is down", Duration.ofSeconds(60), true,
                    () -> insertFailures(HttpText.get(metrics)) >= 1);
            assertEquals(KafkaStreams.State.RUNNING, processor.state());

            clickHouse = ClickHouseServer.start(chdb, data, http, tcp, workDir.resolve("ch.log"));
            String url = clickHouse.httpUrl();
            assertEquals("200\t100", Await.until(Duration.ofSeconds(90), "200\t100", () -> requests(url) + "\t" + errors(url)));
            // Every event once in the history, by id, with its own status: none lost, none doubled.
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                expected.add("before" + i + "\t200");
                expected.add("during" + i + "\t500");
            }
            Collections.sort(expected);
            String history = String.join("\n", expected);
            assertEquals(history, Await.until("every event in the history", Duration.ofSeconds(60), history, () -> HttpText.query(url,
                    "SELECT event_id, status_code FROM sluice_outage.transactions FINAL ORDER BY event_id")));
            List<String> sent = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                sent.add("before" + i);
                sent.add("during" + i);
            }
            DeliveryReport report = DeliveryReport.of("ClickHouse down for a while under load", sent,
                    Arrays.asList(HttpText.query(url, "SELECT event_id FROM sluice_outage.transactions FINAL").split("\n")),
                    Long.parseLong(requests(url))).print();
            assertEquals(0, report.lost(), report.toString());
            assertEquals(0, report.duplicated(), report.toString());
        } finally {
            processor.close();
            clickHouse.close();
        }
    }

    private static String requests(String url) {
        return HttpText.query(url, "SELECT sum(requests) FROM sluice_outage.traffic_1m FINAL");
    }

    private static String errors(String url) {
        return HttpText.query(url, "SELECT sum(status_5xx) FROM sluice_outage.traffic_1m FINAL");
    }

    /** The sum of {@code sluice_sink_insert_failures_total} over the tables. */
    private static long insertFailures(String metrics) {
        return HttpText.sum(metrics, Pattern.compile("(?m)^sluice_sink_insert_failures_total\\{table=\"sluice_outage\\.[a-z_0-9]+\"} (\\d+)\\.0$"));
    }
}
