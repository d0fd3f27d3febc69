package io.sluice.sink;

import java.time.Duration;

/**
 * When the sink inserts a batch (whichever bound is reached first: rows, bytes or age), and how
 * long it may go without progress while rows wait before it counts as stalled.
 */
public record SinkLimits(int batchRows, long batchBytes, Duration batchInterval, Duration stallTimeout) {
    public SinkLimits {
        if (batchRows < 1 || batchBytes < 1) {
            throw new IllegalArgumentException("sink batches need at least one row and one byte: " + batchRows + ", " + batchBytes);
        }
    }
}
