package io.sluice.processor.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.kafka.KafkaStartupFailure;
import io.sluice.processor.state.ChangelogRetention.Need;
import io.sluice.processor.state.ChangelogRetention.Shortfall;
import io.sluice.processor.topology.ProcessorTopology;

class ChangelogRetentionTest {
    private static final Duration HORIZON = Duration.ofHours(24);
    private static final Duration MARGIN = Duration.ofHours(2);
    private static final long DAY_MS = Duration.ofDays(1).toMillis();

    @Test
    void eachChangelogNeedsItsStoresRetentionPlusStreamsDefaultAdditionalDay() {
        List<Need> needs = ChangelogRetention.needs("sluice-processor", ProcessorTopology.windowStoreRetentions(HORIZON, MARGIN),
                ChangelogRetention.additionalRetentionMs(new Properties()));

        assertEquals(List.of("sluice-processor-error-names-changelog", "sluice-processor-error-outcomes-changelog",
                "sluice-processor-error-routes-changelog", "sluice-processor-errors-1h-changelog",
                "sluice-processor-errors-1m-changelog", "sluice-processor-requests-1h-changelog", "sluice-processor-requests-1m-changelog",
                "sluice-processor-seen-errors-changelog", "sluice-processor-seen-sessions-changelog",
                "sluice-processor-seen-transactions-changelog", "sluice-processor-session-names-changelog",
                "sluice-processor-session-outcomes-changelog", "sluice-processor-sessions-1h-changelog",
                "sluice-processor-traffic-1h-changelog", "sluice-processor-traffic-1m-changelog", "sluice-processor-transaction-names-changelog",
                "sluice-processor-transaction-outcomes-changelog", "sluice-processor-transaction-routes-changelog"),
                needs.stream().map(Need::topic).toList());
        // minute counts: 1 min + 24 h + 2 h + 1 day; hour counts: 1 h + 24 h + 2 h + 1 day; seen ids: 24 h + 2 h + 1 day;
        // names (routes, environments, exception types) of a day: 1 day + 24 h + 2 h + 1 day; collapsed outcomes per minute as minute counts
        assertEquals(List.of(266_400_000L, 180_060_000L, 266_400_000L, 183_600_000L, 180_060_000L, 183_600_000L, 180_060_000L,
                180_000_000L, 180_000_000L, 180_000_000L, 266_400_000L, 180_060_000L, 183_600_000L,
                183_600_000L, 180_060_000L, 266_400_000L, 180_060_000L, 266_400_000L),
                needs.stream().map(Need::retentionMs).toList());
    }

    @Test
    void aConfiguredAdditionalRetentionIsTheOneStreamsAdds() {
        Properties streams = new Properties();
        streams.put(StreamsConfig.WINDOW_STORE_CHANGE_LOG_ADDITIONAL_RETENTION_MS_CONFIG, "3600000");

        assertEquals(3_600_000L, ChangelogRetention.additionalRetentionMs(streams));
        assertEquals(DAY_MS, ChangelogRetention.additionalRetentionMs(new Properties()));
    }

    @Test
    void aRetentionShorterThanNeededIsRaisedAndNoneLongerOrForeverIsLowered() {
        assertTrue(ChangelogRetention.tooShort(179_999_999L, 180_000_000L));
        assertFalse(ChangelogRetention.tooShort(180_000_000L, 180_000_000L));
        assertFalse(ChangelogRetention.tooShort(30 * DAY_MS, 180_000_000L));
        assertFalse(ChangelogRetention.tooShort(-1L, 180_000_000L));
    }

    @Test
    void aRefusalNamesTheTopicTheValueItNeedsAndTheCommandThatSetsIt() {
        Need need = new Need("sluice-processor-seen-errors-changelog", Duration.ofHours(74), DAY_MS);

        String message = ChangelogRetention.refusal(List.of(new Shortfall(need, 180_000_000L)), "kafka-1:9092");

        assertTrue(message.startsWith("cannot raise retention.ms of changelog topic sluice-processor-seen-errors-changelog "
                + "from 180000000 ms (PT50H) to 352800000 ms (PT98H)"), message);
        assertTrue(message.contains("Run: kafka-configs.sh --bootstrap-server kafka-1:9092 --alter --entity-type topics "
                + "--entity-name sluice-processor-seen-errors-changelog --add-config retention.ms=352800000 ;"), message);
    }

    /** Nothing listens on port 1: the check gives up after its timeout, naming what it could not read. */
    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void kafkaNotAnsweringFailsStartupAfterTheTimeout() {
        KafkaSettings kafka = KafkaSettings.from(new Settings(Map.of("SLUICE_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:1")));
        long start = System.nanoTime();

        KafkaStartupFailure failure = assertThrows(KafkaStartupFailure.class, () -> ChangelogRetention.ensure(kafka, "sluice-processor",
                ProcessorTopology.windowStoreRetentions(HORIZON, MARGIN), new Properties(), Duration.ofSeconds(2)));

        assertTrue(failure.getMessage().startsWith("cannot read the retention.ms of the processor's changelog topics "
                + "sluice-processor-error-names-changelog, "), failure.getMessage());
        assertTrue(failure.getMessage().contains("did not answer within 2 s"), failure.getMessage());
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertTrue(seconds < 8, "took " + seconds + " s");
    }
}
