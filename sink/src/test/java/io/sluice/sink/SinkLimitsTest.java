package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sluice.config.Settings;

/** The sink's SLUICE_SINK_* settings, read once into its limits. */
class SinkLimitsTest {
    @Test
    void unsetTheyAreTheDocumentedDefaults() {
        assertEquals(new SinkLimits(20_000, 16 << 20, Duration.ofSeconds(1), Duration.ofSeconds(60)),
                SinkLimits.from(new Settings(Map.of())));
    }

    @Test
    void eachIsReadFromItsVariable() {
        assertEquals(new SinkLimits(500, 4096, Duration.ofMillis(250), Duration.ofSeconds(3)),
                SinkLimits.from(new Settings(Map.of("SLUICE_SINK_BATCH_ROWS", "500", "SLUICE_SINK_BATCH_BYTES", "4096",
                        "SLUICE_SINK_BATCH_INTERVAL", "250ms", "SLUICE_SINK_STALL_TIMEOUT", "3s"))));
    }

    @Test
    void aBatchOfNoRowsIsRefusedNamingTheVariable() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> SinkLimits.from(new Settings(Map.of("SLUICE_SINK_BATCH_ROWS", "0"))));
        assertEquals("SLUICE_SINK_BATCH_ROWS=0 is not at least 1 (Most rows in one ClickHouse insert.)", refused.getMessage());
    }
}
