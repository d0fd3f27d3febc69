package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.clickhouse.client.api.Client;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.config.Aggregate.Window;
import io.sluice.kafka.TopicSetup;
import io.sluice.processor.rows.Generations;
import io.sluice.processor.rows.TrafficRow;
import io.sluice.processor.rows.WindowStart;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.SchemaMigrations;
import io.sluice.sink.replay.Replay;
import io.sluice.sink.replay.ReplayRequest;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * Issue 29 finding 6: after a recompute, the old generation's processor (still serving live
 * traffic) writes rows for the same minutes as the new one, with lower versions. A replay keeps
 * the highest version of every key, as ClickHouse does, not the last row in topic order.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ReplayKeepsHighestVersionIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path stateDir;

    @Test
    void aReplayedMinuteKeepsTheNewerGenerationsCountWhenAnOlderGenerationsRowComesAfterIt(Engines engines) throws Exception {
        ProcessorConfig config = ProcessorConfig.from(TestSettings.isolated("replay_versions", engines, stateDir).build());
        TopicSetup.ensureTopics(config.kafka());
        long minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(10)).getEpochSecond();
        // The recompute's count (generation 1: 40), then the old processor's later update (generation 0: 41).
        TrafficRow recomputed = new TrafficRow("shop", "production", new WindowStart(Window.MINUTE, minute), 40, 0, 40, 0, 0, 0, 0, Generations.version(1, 40));
        TrafficRow older = new TrafficRow("shop", "production", new WindowStart(Window.MINUTE, minute), 41, 0, 41, 0, 0, 0, 0, Generations.version(0, 41));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, engines.kafkaBootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (TrafficRow row : List.of(recomputed, older)) {
                byte[] key = ("shop/production/" + minute).getBytes(StandardCharsets.UTF_8);
                producer.send(new ProducerRecord<>(config.kafka().topics().traffic(), key, JSON.writeValueAsBytes(row))).get();
            }
        }

        try (Client client = ClickHouseClients.create(config.clickHouse())) {
            SchemaMigrations.apply(client, config.clickHouse());
            List<Replay.TableSummary> summaries = new Replay(config.kafka(), config.eventTimeHorizon(), client,
                    config.clickHouse(), new RecordedReplay())
                    .run(new ReplayRequest(Instant.ofEpochSecond(minute), Instant.ofEpochSecond(minute + 60), null,
                            Set.of(ReplayRequest.What.AGGREGATES), false));
            assertEquals(1, summaries.get(0).rowsResent(), "one row per key");
        }

        assertEquals("40\t" + Generations.version(1, 40), ClickHouseQuery.run(engines,
                "SELECT requests, version FROM sluice_replay_versions.traffic_1m FINAL WHERE project = 'shop'"));
    }
}
