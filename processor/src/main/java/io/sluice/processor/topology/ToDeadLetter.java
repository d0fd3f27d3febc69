package io.sluice.processor.topology;

import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;

import io.sluice.events.EventHeaders;
import io.sluice.processor.rows.Fact;

/**
 * Sends an unusable record on to the dead-letter topic: the original bytes (unless too large, see
 * {@link DeadLetterValues}) and headers, plus where it came from and why it failed.
 */
final class ToDeadLetter<F extends Fact> implements FixedKeyProcessor<String, Parsed<F>, byte[]> {
    static final String REASON = "sluice.dead_letter.reason";
    static final String SOURCE = "sluice.dead_letter.source";

    private final DeadLetterCounts counts;
    private FixedKeyProcessorContext<String, byte[]> context;

    ToDeadLetter(DeadLetterCounts counts) {
        this.counts = counts;
    }

    @Override
    public void init(FixedKeyProcessorContext<String, byte[]> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<String, Parsed<F>> record) {
        RecordMetadata source = context.recordMetadata().orElseThrow();
        EventHeaders.put(record.headers(), REASON, record.value().failure());
        EventHeaders.put(record.headers(), SOURCE, source.topic() + "/" + source.partition() + "@" + source.offset());
        counts.unparseable();
        context.forward(record.withValue(DeadLetterValues.fitting(record.value().raw(), record.headers())));
    }
}
