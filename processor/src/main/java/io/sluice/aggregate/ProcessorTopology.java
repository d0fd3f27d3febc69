package io.sluice.aggregate;

import java.time.Duration;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.WindowStore;

import io.sluice.config.Topics;

/**
 * The processor's whole dataflow, with no I/O of its own:
 * <pre>
 * raw transactions ─ parse ─┬─ unusable ──────────────────────────────────────────▶ dead letters
 *                           └─ first sighting of (project, event id) ─┬───────────▶ history
 *                                                                     └─ count per project,
 *                                                 environment and event-time minute ▶ traffic-1m
 * </pre>
 * Records carry their event time as the Kafka timestamp (set by the gateway), so windows are
 * event-time minutes; a minute stays open for the horizon, so late events count in their minute.
 */
public final class ProcessorTopology {
    private static final Serde<TransactionFact> FACTS = JsonSerde.of(TransactionFact.class);
    private static final Serde<TrafficKey> TRAFFIC_KEYS = JsonSerde.of(TrafficKey.class);
    private static final Serde<TrafficCounts> COUNTS = JsonSerde.of(TrafficCounts.class);
    private static final Serde<TrafficRow> TRAFFIC_ROWS = JsonSerde.of(TrafficRow.class);

    private ProcessorTopology() {
    }

    public static Topology build(Topics topics, Duration horizon) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.addStateStore(FirstSighting.store(horizon));

        KStream<String, TransactionFact> facts = builder
                .stream(topics.transactions(), Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("raw-transactions"))
                .processValues(ParseTransaction::new, Named.as("parse"))
                .split(Named.as("parsed-"))
                .branch((token, parsed) -> parsed.failed(), Branched.withConsumer(unusable -> unusable
                        .processValues(ToDeadLetter::new, Named.as("dead-letter"))
                        .to(topics.deadLetters(), Produced.with(Serdes.String(), Serdes.ByteArray())), "unusable"))
                .defaultBranch(Branched.as("ok"))
                .get("parsed-ok")
                .mapValues(ParsedTransaction::fact, Named.as("fact"))
                .processValues(FirstSighting::new, Named.as("first-sighting"), FirstSighting.STORE);

        facts.to(topics.history(), Produced.with(Serdes.String(), FACTS).withName("history"));

        facts.groupBy((token, fact) -> new TrafficKey(fact.project(), fact.environment()),
                        Grouped.with("traffic-by-environment", TRAFFIC_KEYS, FACTS))
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMinutes(1), horizon))
                .aggregate(() -> TrafficCounts.NONE, (key, fact, counts) -> counts.add(fact.statusCode()),
                        Named.as("count-traffic"),
                        Materialized.<TrafficKey, TrafficCounts, WindowStore<Bytes, byte[]>>as("traffic-1m")
                                .withKeySerde(TRAFFIC_KEYS).withValueSerde(COUNTS))
                .toStream(Named.as("traffic-changes"))
                .map(ProcessorTopology::toRow, Named.as("traffic-row"))
                .to(topics.traffic(), Produced.with(Serdes.String(), TRAFFIC_ROWS).withName("traffic-1m-out"));

        return builder.build();
    }

    private static KeyValue<String, TrafficRow> toRow(Windowed<TrafficKey> window, TrafficCounts counts) {
        TrafficRow row = TrafficRow.of(window.key(), window.window().start(), counts);
        return KeyValue.pair(row.project() + '/' + row.environment() + '/' + row.minute(), row);
    }
}
