package io.sluice.sink;

/**
 * ClickHouse refused the only row of a batch for its table: one row cannot tell a bad row from a
 * table that refuses every row (a column changed under the sink), so the row waits, uncommitted,
 * and is tried again with the next rows of its table. The stall watchdog reports it while it lasts.
 */
public final class RefusedAloneException extends Exception {
    RefusedAloneException(String table, String source, String reason) {
        super("ClickHouse refused the only row for " + table + " (" + source + "); a row alone cannot tell its own fault "
                + "from the table's, so it waits uncommitted for the next row of " + table + ": " + reason);
    }
}
