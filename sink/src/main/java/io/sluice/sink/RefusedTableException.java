package io.sluice.sink;

/**
 * ClickHouse refused every row of a batch with the same error: most likely the table cannot take
 * rows (its schema changed, a materialized view fails), not that every row is bad. Retried like
 * ClickHouse being unavailable; the stall watchdog reports it while it lasts.
 */
public final class RefusedTableException extends Exception {
    RefusedTableException(String table, int rows, String reason, boolean again) {
        super("ClickHouse " + (again ? "still refuses" : "refused") + " all " + rows + " rows of the batch for " + table
                + " with the same error, taken for a problem of the table, not of the rows; retrying: " + reason);
    }
}
