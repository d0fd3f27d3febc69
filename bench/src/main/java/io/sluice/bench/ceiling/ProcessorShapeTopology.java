package io.sluice.bench.ceiling;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

import io.sluice.events.EventHeaders;

/**
 * The processor's Kafka work without its own: each raw record's first sighting (a changelogged
 * store, by the gateway's project and event id headers), the raw bytes cut to the size of the
 * processor's history record to a history topic, and a count per project and event-time minute
 * behind a repartition, as the processor's traffic counts. No JSON is read or written. The sighting is a key-value point lookup, cheaper than any store
 * that also forgets old ids (the processor's must), so no exact topology with these outputs can
 * be faster: a ceiling for the processor, and, against the plain copy, what the shape itself costs.
 */
final class ProcessorShapeTopology {
    static final String SEEN = "shape-seen";

    private ProcessorShapeTopology() {
    }

    /**
     * @param historyBytes most bytes of each raw value written to history: the processor's history record's size
     * @param endOffsets   by partition, the first raw offset left out (records published after the backlog); none: all
     */
    static Topology build(String rawTopic, String historyTopic, String countsTopic, Duration minuteOpenFor, int historyBytes,
                          Map<Integer, Long> endOffsets) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SEEN), Serdes.String(), Serdes.Long())
                .withCachingDisabled());
        KStream<String, byte[]> firstSightings = builder
                .stream(rawTopic, Consumed.with(Serdes.String(), Serdes.ByteArray()))
                .process(() -> new FirstSightingByHeaders(endOffsets), SEEN)
                .mapValues(raw -> raw.length > historyBytes ? Arrays.copyOf(raw, historyBytes) : raw);
        firstSightings.to(historyTopic, Produced.with(Serdes.String(), Serdes.ByteArray()));
        // Like the processor's status, a small value crosses the repartition, not the event.
        firstSightings.mapValues(raw -> 200)
                .groupByKey(Grouped.with("shape-by-project", Serdes.String(), Serdes.Integer()))
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMinutes(1), minuteOpenFor))
                .count(Materialized.as("shape-counts"))
                .toStream()
                .map((window, count) -> KeyValue.pair(window.key() + '/' + window.window().start(), count))
                .to(countsTopic, Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    /** Forwards a record the first time its project and event id are seen, keyed by the project, without headers. */
    private static final class FirstSightingByHeaders implements Processor<String, byte[], String, byte[]> {
        private final Map<Integer, Long> endOffsets;
        private ProcessorContext<String, byte[]> context;
        private KeyValueStore<String, Long> seen;

        FirstSightingByHeaders(Map<Integer, Long> endOffsets) {
            this.endOffsets = endOffsets;
        }

        @Override
        public void init(ProcessorContext<String, byte[]> context) {
            this.context = context;
            this.seen = context.getStateStore(SEEN);
        }

        @Override
        public void process(Record<String, byte[]> record) {
            RecordMetadata source = context.recordMetadata().orElseThrow();
            if (source.offset() >= endOffsets.getOrDefault(source.partition(), Long.MAX_VALUE)) {
                return;
            }
            String project = EventHeaders.get(record.headers(), EventHeaders.PROJECT);
            String id = project + '/' + EventHeaders.get(record.headers(), EventHeaders.EVENT_ID);
            if (seen.get(id) != null) {
                return;
            }
            seen.put(id, record.timestamp());
            // The processor's facts leave the raw headers behind too: Streams would copy them onto every record sent on.
            context.forward(record.withKey(project).withHeaders(new RecordHeaders()));
        }
    }
}
