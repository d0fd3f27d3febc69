package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.events.EventHeaders;
import io.sluice.processor.ProcessorConfig;
import io.sluice.processor.ProcessorService;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * {@code ./sluice replay} as the README shows it: "prints progress (records read, rows, rate, ETA)
 * and per table the rows re-sent and how many were already present" — the real command on real
 * engines, its whole output checked line by line with its final numbers.
 */
@ExtendWith(RealEngines.class)
class ReplayCommandIT {
    private static final String TABLE = "sluice_replaycli.transactions";

    @TempDir
    Path stateDir;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void replayPrintsItsProgressThenPerTableTheRowsResentAndAlreadyPresent(Engines engines) throws Exception {
        Map<String, String> values = TestSettings.isolated("replaycli", engines, stateDir).toMap();
        Settings settings = new Settings(values);
        Instant time = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));
        try (ProcessorService processor = ProcessorService.start(ProcessorConfig.from(settings));
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                     engines.kafkaBootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 20; i++) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(values.get("SLUICE_TOPIC_TRANSACTIONS"), null,
                        time.toEpochMilli(), "shop".getBytes(StandardCharsets.UTF_8),
                        ("{\"transaction\": \"GET /items/" + i + "\", \"environment\": \"production\"}").getBytes(StandardCharsets.UTF_8));
                EventHeaders.put(record.headers(), EventHeaders.EVENT_ID, "c" + i);
                EventHeaders.put(record.headers(), EventHeaders.PROJECT, "shop");
                EventHeaders.put(record.headers(), EventHeaders.EVENT_TIME, Long.toString(time.toEpochMilli()));
                EventHeaders.put(record.headers(), EventHeaders.RECEIVED_AT, Long.toString(time.toEpochMilli()));
                producer.send(record).get(10, TimeUnit.SECONDS);
            }
            Await.until(Duration.ofSeconds(60), "20", () -> ClickHouseQuery.run(engines, "SELECT count() FROM " + TABLE + " FINAL").strip());
        }
        ClickHouseQuery.run(engines, "TRUNCATE TABLE " + TABLE);
        String from = time.minus(Duration.ofHours(1)).toString();
        String to = time.plus(Duration.ofHours(1)).toString();

        CliRunner.Result first = CliRunner.run(settings, "replay", "--from", from, "--to", to, "--what", "history");
        assertEquals(0, first.exitCode(), first.err());
        assertReplayOutput(first.out(), from, to, 0);
        assertEquals("20\t20", ClickHouseQuery.run(engines, "SELECT count(), uniqExact(event_id) FROM " + TABLE + " FINAL").strip());

        CliRunner.Result second = CliRunner.run(settings, "replay", "--from", from, "--to", to, "--what", "history");
        assertEquals(0, second.exitCode(), second.err());
        assertReplayOutput(second.out(), from, to, 20);
    }

    /** Start line; progress lines rewritten in place (\r), the last one complete; a blank line; the summary table. */
    private static void assertReplayOutput(String out, String from, String to, int alreadyPresent) {
        String lastProgress = Pattern.quote(String.format("\r%-28s read 20/20 records, 20 rows, ", TABLE)) + "\\d+ records/s, ETA 0 s   ";
        String expected = Pattern.quote("Replaying event times " + from + " … " + to + ", all projects\n")
                + "(\r[^\r\n]*)*" + lastProgress + "\n\n"
                + Pattern.quote(String.format("%-28s %14s %14s %18s %10s%n", "table", "records read", "rows re-sent", "already present", "refused")
                + String.format("%-28s %14d %14d %18s %10s%n", TABLE, 20, 20, Integer.toString(alreadyPresent), "0"));
        assertTrue(Pattern.compile(expected).matcher(out).matches(), "replay printed:\n" + out.replace("\r", "\\r\n"));
    }
}
