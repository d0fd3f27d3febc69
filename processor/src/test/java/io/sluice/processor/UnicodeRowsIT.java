package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
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
import io.sluice.testkit.TestSettings;

/** Strings JSON allows but UTF-8 cannot encode reach ClickHouse as U+FFFD; NUL and U+FFFF as they are. */
@ExtendWith(RealEngines.class)
class UnicodeRowsIT {
    @TempDir
    Path stateDir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aLoneSurrogateIsStoredAsReplacementCharacterAndNulAndNoncharacterAsSent(Engines engines) {
        Map<String, String> values = TestSettings.isolated("unicode", engines, stateDir).toMap();
        ProcessorConfig config = ProcessorConfig.from(new Settings(values));
        TopicSetup.ensureTopics(config.kafka());
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));
        String db = values.get("SLUICE_CLICKHOUSE_DATABASE");
        try (ProcessorService processor = ProcessorService.start(config); RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            raw.send("unicode.transactions", "shop", "u1", minute,
                    "{\"transaction\": \"GET /\\ud800x\\u0000y\\uffff\", \"environment\": \"production\"}");
            raw.send("unicode.errors", "shop", "u2", minute, "{\"environment\": \"production\", \"exception\": "
                    + "{\"values\": [{\"type\": \"E\\udc00\", \"value\": \"v\\ud800\"}]}}");
            // "GET /" U+FFFD "x" NUL "y" U+FFFF, in UTF-8
            assertEquals("474554202FEFBFBD780079EFBFBF", Await.until(Duration.ofSeconds(60), "474554202FEFBFBD780079EFBFBF",
                    () -> ClickHouseQuery.run(engines, "SELECT hex(transaction) FROM " + db + ".transactions FINAL")));
            assertEquals("45EFBFBD\t76EFBFBD\t1", Await.until(Duration.ofSeconds(60), "45EFBFBD\t76EFBFBD\t1",
                    () -> ClickHouseQuery.run(engines, "SELECT hex(exception_type), hex(exception_value), "
                            + "(SELECT sum(errors) FROM " + db + ".errors_1m FINAL) FROM " + db + ".errors FINAL")));
            // The per-route rows carry the same valid text as the history.
            assertEquals("1\t1\t45EFBFBD", Await.until(Duration.ofSeconds(60), "1\t1\t45EFBFBD", () -> ClickHouseQuery.run(engines,
                    "SELECT (SELECT sum(requests) FROM " + db + ".requests_1h FINAL), (SELECT any(route) FROM " + db + ".requests_1h FINAL) = "
                            + "(SELECT any(route) FROM " + db + ".transactions FINAL), (SELECT hex(any(exception_type)) FROM " + db
                            + ".errors_1h FINAL)")));
        }
    }
}
