package io.sluice.processor.topology;

/**
 * What the counting stage receives for a key and minute (the record's key and timestamp): a source
 * partition's counts so far, absolute, replacing that partition's earlier ones; or, from a
 * processor of a former version, one event's counts, to be added ({@link #FORMER_EVENT}).
 */
record CountUpdate<C>(int sourcePartition, C counts) {
    /** In place of a partition: one event sent by a former version, which repartitioned every event. */
    static final int FORMER_EVENT = -1;
}
