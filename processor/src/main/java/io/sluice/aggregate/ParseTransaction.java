package io.sluice.aggregate;

import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/** Parses each raw record; failures are passed on with their reason instead of stopping the partition. */
final class ParseTransaction implements FixedKeyProcessor<String, byte[], ParsedTransaction> {
    private FixedKeyProcessorContext<String, ParsedTransaction> context;

    @Override
    public void init(FixedKeyProcessorContext<String, ParsedTransaction> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<String, byte[]> record) {
        RecordMetadata source = context.recordMetadata().orElseThrow();
        ParsedTransaction parsed;
        try {
            if (record.value() == null) {
                throw new UnprocessableRecordException("value is empty");
            }
            TransactionFact fact = TransactionParser.parse(record.value(), record.headers(), record.timestamp(),
                    source.partition(), source.offset());
            parsed = new ParsedTransaction(fact, null, null);
        } catch (UnprocessableRecordException e) {
            parsed = new ParsedTransaction(null, record.value(), e.getMessage());
        }
        context.forward(record.withValue(parsed));
    }
}
