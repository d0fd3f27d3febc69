package io.sluice.processor.topology;

import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

import io.sluice.processor.rows.SessionFact;
import io.sluice.processor.rows.SessionItem;

/** A session item's counts, one record each, timed when its sessions started: the hour they count in. */
final class SessionFacts implements FixedKeyProcessor<String, SessionItem, SessionFact> {
    private FixedKeyProcessorContext<String, SessionFact> context;

    @Override
    public void init(FixedKeyProcessorContext<String, SessionFact> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<String, SessionItem> record) {
        for (SessionFact fact : record.value().facts()) {
            context.forward(record.withValue(fact).withTimestamp(fact.startedMillis()));
        }
    }
}
