package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** After a processor bug: a processor with a new application id and a higher generation recomputes from the raw topics. */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RecomputeIT {
    @TempDir
    Path workDir;

    @Test
    void aRecomputeWithAHigherGenerationReplacesWrongCountsBesideLiveTraffic(Engines engines) throws Exception {
        Map<String, String> live = PipelineSettings.forTest("recompute", engines, engines.clickHouseUrl(), workDir.resolve("live"));
        TopicSetup.ensureTopics(ProcessorConfig.from(new Settings(live)).kafka());
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));
        try (Processor liveProcessor = Processor.start(ProcessorConfig.from(new Settings(live)));
             RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            for (int i = 0; i < 40; i++) {
                raw.transaction("recompute.transactions", "shop", "c" + i, minute.plusSeconds(i), 200);
            }
            Await.until(Duration.ofSeconds(60), "40", () -> requests(engines));
            // A buggy processor wrote a count that is too high, with a higher version than the true one.
            ClickHouseQuery.run(engines, "INSERT INTO sluice_recompute.traffic_1m (project, environment, minute, requests, "
                    + "status_2xx, version) VALUES ('shop', 'production', " + minute.getEpochSecond() + ", 999, 999, 999)");
            assertEquals("999", requests(engines));

            Map<String, String> recompute = new HashMap<>(live);
            recompute.put("SLUICE_PROCESSOR_APPLICATION_ID", "sluice-recompute-gen1");
            recompute.put("SLUICE_PROCESSOR_GENERATION", "1");
            recompute.put("SLUICE_PROCESSOR_STATE_DIR", workDir.resolve("gen1").toString());
            try (Processor gen1 = Processor.start(ProcessorConfig.from(new Settings(recompute)))) {
                assertEquals("40", Await.until(Duration.ofSeconds(60), "40", () -> requests(engines)));
                raw.transaction("recompute.transactions", "shop", "c40", minute.plusSeconds(41), 200); // live traffic meanwhile
                assertEquals("41", Await.until(Duration.ofSeconds(60), "41", () -> requests(engines)));
            }
        }
    }

    private static String requests(Engines engines) {
        return ClickHouseQuery.run(engines, "SELECT sum(requests) FROM sluice_recompute.traffic_1m FINAL WHERE project = 'shop'");
    }
}
