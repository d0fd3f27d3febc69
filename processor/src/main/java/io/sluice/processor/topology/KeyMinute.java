package io.sluice.processor.topology;

/** A grouping key and the start of its event-time minute (epoch milliseconds). */
record KeyMinute<K>(K key, long minute) {
}
