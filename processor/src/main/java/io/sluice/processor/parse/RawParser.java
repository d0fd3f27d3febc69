package io.sluice.processor.parse;

import org.apache.kafka.common.header.Headers;

import io.sluice.processor.rows.Fact;

/** Turns a raw record into a fact, or throws {@link UnprocessableRecordException} with the reason. */
@FunctionalInterface
public interface RawParser<F extends Fact> {
    F parse(byte[] json, Headers headers, long recordTimestamp, int partition, long offset);
}
