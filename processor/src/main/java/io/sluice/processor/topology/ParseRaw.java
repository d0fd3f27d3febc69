package io.sluice.processor.topology;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;

import io.sluice.processor.parse.RawParser;
import io.sluice.processor.parse.UnprocessableRecordException;
import io.sluice.processor.rows.Fact;

/** Parses each raw record; failures are passed on with their reason instead of stopping the partition. */
final class ParseRaw<F extends Fact> implements FixedKeyProcessor<String, byte[], Parsed<F>> {
    private final RawParser<F> parser;
    private FixedKeyProcessorContext<String, Parsed<F>> context;

    ParseRaw(RawParser<F> parser) {
        this.parser = parser;
    }

    @Override
    public void init(FixedKeyProcessorContext<String, Parsed<F>> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<String, byte[]> record) {
        RecordMetadata source = context.recordMetadata().orElseThrow();
        Parsed<F> parsed;
        try {
            if (record.value() == null) {
                throw new UnprocessableRecordException("value is empty");
            }
            parsed = new Parsed<>(parser.parse(record.value(), record.headers(), record.timestamp(),
                    source.partition(), source.offset()), null, null);
            // The fact holds all the rest needs. Kept, the gateway's seven headers would be copied
            // onto every history and repartition record, encoded, and sized again on each hop
            // (header work showed all over the stream threads' profile in ./sluice bench --profile).
            context.forward(record.withValue(parsed).withHeaders(new RecordHeaders()));
            return;
        } catch (UnprocessableRecordException e) {
            parsed = new Parsed<>(null, record.value(), e.getMessage());
        } catch (RuntimeException e) {
            // A parser bug must not stop the partition either: the record waits in the dead letters.
            parsed = new Parsed<>(null, record.value(), "unexpected " + e);
        }
        context.forward(record.withValue(parsed)); // with its headers: the dead letter keeps them
    }
}
