package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.DeliveryReport;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/** SIGKILL, not a polite close: the processor runs in a child JVM that is killed while events flow. */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ProcessorKilledMidStreamIT {
    private static final int EVENTS = 3000;

    @TempDir
    Path workDir;

    @Test
    void aProcessorKilledMidStreamAndRestartedLosesAndDoublesNothing(Engines engines) throws Exception {
        Map<String, String> values = TestSettings.isolated("killed", engines, workDir.resolve("state")).toMap();
        values.put("SLUICE_PROCESSOR_INSTANCE_ID", "killed-1");
        TopicSetup.ensureTopics(ProcessorConfig.from(new Settings(values)).kafka());
        String db = values.get("SLUICE_CLICKHOUSE_DATABASE");

        Process first = startProcessor(values, workDir.resolve("first.log"));
        Await.until(Duration.ofSeconds(60), "1", () -> ClickHouseQuery.run(engines, "EXISTS TABLE " + db + ".traffic_1m"));
        Instant minute = Instant.now().minusSeconds(120);
        Process second;
        try (RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            for (int i = 0; i < EVENTS; i++) {
                // One project over every raw partition: each task's unsent sums must survive the kill.
                raw.spreadTransaction("killed.transactions", 3, "shop", "k" + i, minute.plusMillis(i), 200);
                if (i == EVENTS / 3) {
                    // Mid-stream: the first processor has written rows already, and more are on their way.
                    Await.until("the first processor's first rows in ClickHouse", Duration.ofSeconds(60), true, () -> !"0".equals(
                            ClickHouseQuery.run(engines, "SELECT count() FROM " + db + ".transactions")));
                    first.destroyForcibly();
                    assertTrue(first.waitFor(30, TimeUnit.SECONDS), "the first processor is gone");
                    assertEquals(137, first.exitValue(), "killed by SIGKILL (128 + 9), not a clean exit");
                }
            }
            second = startProcessor(values, workDir.resolve("second.log"));
        }
        try {
            String expected = EVENTS + "\t" + EVENTS + "\t" + EVENTS + "\t" + EVENTS;
            assertEquals(expected, Await.until(Duration.ofSeconds(120), expected, () -> ClickHouseQuery.run(engines,
                    "SELECT (SELECT sum(requests) FROM " + db + ".traffic_1m FINAL), (SELECT count() FROM " + db + ".transactions FINAL), "
                            + "(SELECT sum(requests) FROM " + db + ".requests_1m FINAL), (SELECT sum(requests) FROM " + db + ".requests_1h FINAL)")));
            // Each event by id: the history holds exactly the ids sent, the counts hold each once.
            Set<String> sent = new TreeSet<>();
            for (int i = 0; i < EVENTS; i++) {
                sent.add("k" + i);
            }
            List<String> stored = Arrays.asList(ClickHouseQuery.run(engines,
                    "SELECT event_id FROM " + db + ".transactions FINAL").split("\n"));
            long counted = Long.parseLong(ClickHouseQuery.run(engines, "SELECT sum(requests) FROM " + db + ".traffic_1m FINAL"));
            DeliveryReport report = DeliveryReport.of("processor SIGKILLed mid-stream, restarted", sent, stored, counted).print();
            assertEquals(sent, new TreeSet<>(stored));
            assertEquals(0, report.duplicated(), report.toString());
        } finally {
            second.destroy();
            second.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static Process startProcessor(Map<String, String> values, Path log) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                ProcessorMain.class.getName());
        builder.environment().putAll(values);
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        return builder.start();
    }
}
