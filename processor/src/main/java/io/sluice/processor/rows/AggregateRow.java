package io.sluice.processor.rows;

/** A row of an aggregate table, written to the aggregate's topic. */
public interface AggregateRow {
    /** The output record's key: the row's key columns, so compaction keeps the newest of each row ({@link KeyText}). */
    String topicKey();
}
