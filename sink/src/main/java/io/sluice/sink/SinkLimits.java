package io.sluice.sink;

import java.time.Duration;
import java.util.List;

import io.sluice.config.Setting;
import io.sluice.config.Settings;

/**
 * When the sink inserts a batch (whichever bound is reached first: rows, bytes or age), and how
 * long it may go without progress while rows wait before it counts as stalled.
 */
public record SinkLimits(int batchRows, long batchBytes, Duration batchInterval, Duration stallTimeout) {
    public static final Setting BATCH_ROWS = new Setting("SLUICE_SINK_BATCH_ROWS", "20000",
            "Most rows in one ClickHouse insert.").atLeast(1);
    public static final Setting BATCH_BYTES = new Setting("SLUICE_SINK_BATCH_BYTES", "16777216",
            "Most bytes (of JSON rows) in one ClickHouse insert.").atLeast(1);
    public static final Setting BATCH_INTERVAL = new Setting("SLUICE_SINK_BATCH_INTERVAL", "1s",
            "Longest a row waits before its batch is inserted: most of the freshness under light load (250ms halved it in "
                    + "docs/performance.md, at four inserts per table per second from each instance instead of one).");
    public static final Setting STALL_TIMEOUT = new Setting("SLUICE_SINK_STALL_TIMEOUT", "60s",
            "How long the sink may commit nothing while rows wait before /readyz fails and sluice_sink_stalled is 1.");

    public static final List<Setting> SETTINGS = List.of(BATCH_ROWS, BATCH_BYTES, BATCH_INTERVAL, STALL_TIMEOUT);

    public SinkLimits {
        if (batchRows < 1 || batchBytes < 1) {
            throw new IllegalArgumentException("sink batches need at least one row and one byte: " + batchRows + ", " + batchBytes);
        }
    }

    public static SinkLimits from(Settings settings) {
        return new SinkLimits(settings.getInt(BATCH_ROWS), settings.getLong(BATCH_BYTES), settings.getDuration(BATCH_INTERVAL),
                settings.getDuration(STALL_TIMEOUT));
    }
}
