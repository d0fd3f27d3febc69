package io.sluice.processor.topology;

import java.time.Duration;
import java.util.function.BinaryOperator;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;

import io.sluice.config.Aggregate;
import io.sluice.config.Topics;
import io.sluice.processor.rows.AggregateRow;
import io.sluice.processor.rows.WindowStart;

/**
 * The one path from counted values to aggregate rows: partial sums in the raw partition's task →
 * repartition → each aggregate's window → the absolute row with its version → the aggregate's topic.
 * A window stays open for the horizon plus the late margin, so late events count in their minute and hour.
 */
final class WindowChain {
    private WindowChain() {
    }

    /**
     * @param values      the values to count, by key, after every limit
     * @param tally       which tasks added up values before the repartition ({@link PreAggregation})
     * @param generation  of the rows' versions ({@link io.sluice.processor.rows.Generations})
     */
    static <K, V, S, R extends AggregateRow> void count(StreamsBuilder builder, KStream<K, V> values, Grouping<K, V, S, R> grouping,
                                PreAggregation.Tally tally, Topics topics, Duration horizon, Duration lateMargin,
                                int generation) {
        builder.addStateStore(PartialCounts.store(grouping.partials()));
        KGroupedStream<K, S> grouped = values
                .process(() -> new PartialCounts<K, V, S>(grouping.partials(), grouping.partialWindow(), grouping.zero(),
                        grouping.add(), grouping.keys(), grouping.partialSums(), tally), Named.as(grouping.partials()), grouping.partials())
                .groupByKey(Grouped.with(grouping.repartition(), grouping.keys(), grouping.partialSums()));
        Serde<R> rows = JsonSerde.of(grouping.rowType());
        for (Aggregate aggregate : grouping.aggregates()) {
            window(grouped, grouping, aggregate, rows, topics, horizon, lateMargin, generation);
        }
    }

    private static <K, S, R extends AggregateRow> void window(KGroupedStream<K, S> grouped, Grouping<K, ?, S, R> grouping,
                                                              Aggregate aggregate, Serde<R> rows, Topics topics, Duration horizon,
                                                              Duration lateMargin, int generation) {
        String name = aggregate.name();
        Duration size = aggregate.window().size();
        BinaryOperator<S> plus = grouping.plus();
        grouped.windowedBy(TimeWindows.ofSizeAndGrace(size, horizon.plus(lateMargin)))
                .aggregate(grouping::zero, (key, partial, sums) -> plus.apply(sums, partial), Named.as("count-" + name),
                        Materialized.<K, S>as(WindowStores.timestamped(name, retention(aggregate, horizon, lateMargin), size,
                                        segmentBasis(aggregate, horizon)))
                                .withKeySerde(grouping.keys()).withValueSerde(grouping.storedSums().get()))
                .toStream(Named.as(name + "-changes"))
                .map((window, sums) -> {
                    R row = grouping.row().of(window.key(), WindowStart.ofMillis(aggregate.window(), window.window().start()), sums,
                            generation);
                    return KeyValue.pair(row.topicKey(), row);
                }, Named.as(name + "-row"))
                .to(topics.of(aggregate), Produced.with(Serdes.String(), rows).withName(name + "-out"));
    }

    /** What an aggregate's window store keeps: size + grace, what an open window needs. */
    static Duration retention(Aggregate aggregate, Duration horizon, Duration lateMargin) {
        return aggregate.window().size().plus(horizon).plus(lateMargin);
    }

    /** Sets a window store's segments: from the horizon only, so a changed margin keeps them (see {@link WindowStores}). */
    static Duration segmentBasis(Aggregate aggregate, Duration horizon) {
        return aggregate.window().size().plus(horizon);
    }
}
