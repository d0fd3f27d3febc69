package io.sluice.processor.topology;

import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;

import io.sluice.events.EventHeaders;
import io.sluice.processor.rows.Fact;

/**
 * Sends an unusable record on to the dead-letter topic: the original bytes and headers, plus
 * where it came from and why it failed.
 */
final class ToDeadLetter<F extends Fact> implements FixedKeyProcessor<String, Parsed<F>, byte[]> {
    static final String REASON = "sluice.dead_letter.reason";
    static final String SOURCE = "sluice.dead_letter.source";

    private FixedKeyProcessorContext<String, byte[]> context;

    @Override
    public void init(FixedKeyProcessorContext<String, byte[]> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<String, Parsed<F>> record) {
        RecordMetadata source = context.recordMetadata().orElseThrow();
        FixedKeyRecord<String, byte[]> deadLetter = record.withValue(record.value().raw());
        EventHeaders.put(deadLetter.headers(), REASON, record.value().failure());
        EventHeaders.put(deadLetter.headers(), SOURCE, source.topic() + "/" + source.partition() + "@" + source.offset());
        context.forward(deadLetter);
    }
}
