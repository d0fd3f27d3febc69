package io.sluice.processor.topology;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
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
import org.apache.kafka.streams.state.Stores;

import io.sluice.config.Topics;
import io.sluice.processor.parse.ErrorParser;
import io.sluice.processor.parse.RawParser;
import io.sluice.processor.parse.TransactionParser;
import io.sluice.processor.rows.ErrorFact;
import io.sluice.processor.rows.ErrorKey;
import io.sluice.processor.rows.ErrorRow;
import io.sluice.processor.rows.Fact;
import io.sluice.processor.rows.TrafficCounts;
import io.sluice.processor.rows.TrafficKey;
import io.sluice.processor.rows.TrafficRow;
import io.sluice.processor.rows.TransactionFact;

/**
 * The processor's whole dataflow, with no I/O of its own:
 * <pre>
 * raw transactions ─ parse ─┬─ unusable ─────────────────────────────────────────────▶ dead letters
 *                           └─ first sighting of (project, event id) ─┬──────────────▶ history
 *                                                                     └─ count per project, environment,
 *                                                                        event-time minute ─▶ traffic-1m
 * raw errors ─────── parse ─┬─ unusable ─────────────────────────────────────────────▶ dead letters
 *                           └─ first sighting of (project, event id) ─┬──────────────▶ error-history
 *                                                                     └─ count per project, environment,
 *                                                                        exception type, minute ─▶ errors-1m
 * </pre>
 * Each count has two stages: every source partition counts its own events ({@link SourceCounts})
 * and sends its changed counts on once per interval; the counting stage, partitioned by key, keeps
 * each source partition's latest counts per minute and emits their sum ({@link SourceTotals}).
 * Records carry their event time as the Kafka timestamp (set by the gateway), so windows are
 * event-time minutes; a minute stays open for the horizon plus a late margin, so late
 * events count in their minute.
 * Output rows are absolute counts: the sink may write them any number of times.
 */
public final class ProcessorTopology {
    static final String SEEN_TRANSACTIONS = "seen-transactions";
    static final String SEEN_ERRORS = "seen-errors";
    /**
     * How long a minute stays open beyond the horizon, unless configured. Stream time is the latest
     * event time seen, which runs ahead of a gateway's clock by the 60 s an event may lie in the
     * future, by the skew between gateways' clocks, and by how far a source partition lags behind
     * the others that feed the same counting partition (after a long restore, or an instance down):
     * without it, an event the gateway accepted at the edge of the horizon would find its minute
     * closed and not be counted. Also what the dedup memory keeps beyond the horizon. The window
     * stores keep horizon + margin of minutes.
     */
    public static final Duration DEFAULT_LATE_MARGIN = Duration.ofHours(2);
    private static final Serde<TransactionFact> TRANSACTIONS = JsonSerde.of(TransactionFact.class);
    private static final Serde<ErrorFact> ERRORS = JsonSerde.of(ErrorFact.class);
    /**
     * The grouping keys: their JSON is the repartition records' key and the window stores' key,
     * so it stays as it always was (it decides partitions and finds stored counts), only made once per key.
     */
    private static final Serde<TrafficKey> TRAFFIC_KEYS = MemoizedSerde.of(JsonSerde.of(TrafficKey.class));
    private static final Serde<ErrorKey> ERROR_KEYS = MemoizedSerde.of(JsonSerde.of(ErrorKey.class));
    static final Tally<TrafficCounts> TRAFFIC_TALLY = new Tally<>(TrafficCounts.NONE, TrafficCounts::plus,
            TrafficCountsSerde.create(), status -> TrafficCounts.NONE.add(status == 0 ? null : status));
    static final Tally<Long> ERROR_TALLY = new Tally<>(0L, Long::sum, Serdes.Long(), one -> (long) one);
    static final Counting<TransactionFact, TrafficKey, TrafficCounts> TRAFFIC = new Counting<>("traffic",
            "traffic-by-environment", "traffic-1m", "count-traffic", "traffic-changes",
            fact -> new TrafficKey(fact.project(), fact.environment()), fact -> TrafficCounts.NONE.add(fact.statusCode()),
            TRAFFIC_KEYS, TRAFFIC_TALLY);
    private static final Counting<ErrorFact, ErrorKey, Long> ERROR_TYPES = new Counting<>("errors",
            "errors-by-type", "errors-1m", "count-errors", "error-changes",
            fact -> new ErrorKey(fact.project(), fact.environment(), fact.exceptionType()), fact -> 1L,
            ERROR_KEYS, ERROR_TALLY);

    /**
     * The unsent marks' changelog: each mark is removed within an interval, so it is almost all
     * removals. An in-memory store replays its whole changelog at every task start: segments roll
     * and removals are compacted away within minutes, so that replay stays short.
     */
    private static final Map<String, String> UNSENT_CHANGELOG = Map.of(
            TopicConfig.SEGMENT_MS_CONFIG, Long.toString(Duration.ofMinutes(10).toMillis()),
            TopicConfig.DELETE_RETENTION_MS_CONFIG, Long.toString(Duration.ofMinutes(10).toMillis()));

    private ProcessorTopology() {
    }

    public static Topology build(Topics topics, Duration horizon) {
        return build(topics, TopologySettings.of(horizon), new DeadLetterCounts(), new LateEvents());
    }

    /**
     * @param deadLetters counts the records sent to the dead letters
     * @param late        counts the events too late for their minute
     */
    public static Topology build(Topics topics, TopologySettings settings, DeadLetterCounts deadLetters, LateEvents late) {
        StreamsBuilder builder = new StreamsBuilder();
        Duration horizon = settings.horizon();
        int generation = settings.generation();

        KStream<String, TransactionFact> transactions = firstSightings(builder, topics.transactions(),
                TransactionParser::parse, SEEN_TRANSACTIONS, topics.deadLetters(), horizon, settings.lateMargin(), deadLetters);
        transactions.to(topics.history(), Produced.with(Serdes.String(), TRANSACTIONS).withName("history"));
        countPerMinute(builder, transactions, TRAFFIC, settings, late)
                .map((window, counts) -> {
                    TrafficRow row = TrafficRow.of(window.key(), window.window().start(), counts, generation);
                    return KeyValue.pair(row.project() + '/' + row.environment() + '/' + row.minute(), row);
                }, Named.as("traffic-row"))
                .to(topics.traffic(), Produced.with(Serdes.String(), JsonSerde.of(TrafficRow.class)).withName("traffic-1m-out"));

        KStream<String, ErrorFact> errors = firstSightings(builder, topics.errors(),
                ErrorParser::parse, SEEN_ERRORS, topics.deadLetters(), horizon, settings.lateMargin(), deadLetters);
        errors.to(topics.errorHistory(), Produced.with(Serdes.String(), ERRORS).withName("error-history"));
        countPerMinute(builder, errors, ERROR_TYPES, settings, late)
                .map((window, count) -> {
                    ErrorRow row = ErrorRow.of(window.key(), window.window().start(), count, generation);
                    return KeyValue.pair(row.project() + '/' + row.environment() + '/' + row.minute() + '/' + row.exceptionType(), row);
                }, Named.as("error-row"))
                .to(topics.errors1m(), Produced.with(Serdes.String(), JsonSerde.of(ErrorRow.class)).withName("errors-1m-out"));

        return builder.build();
    }

    /** Counts of each key and event-time minute, as they change: counted per source partition, summed per key. */
    private static <F, K, C> KStream<Windowed<K>, C> countPerMinute(StreamsBuilder builder, KStream<String, F> facts,
                                                                     Counting<F, K, C> counting, TopologySettings settings,
                                                                     LateEvents late) {
        Duration minute = Duration.ofMinutes(1);
        Duration grace = settings.horizon().plus(settings.lateMargin());
        // Kept for size + grace, what an open minute needs; before the margin that was minute + horizon.
        Duration retention = minute.plus(grace);
        Duration formerRetention = minute.plus(settings.horizon());
        Tally<C> tally = counting.tally();
        builder.addStateStore(Stores.windowStoreBuilder(
                        WindowStores.plain(counting.sourceStore(), retention, minute, formerRetention), counting.keySerde(), tally.serde())
                .withCachingEnabled()); // a count is written (and logged) once per commit, not once per event
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(counting.unsentStore()),
                        CountFormats.keyMinutes(counting.keySerde()), Serdes.Long())
                .withCachingEnabled()
                .withLoggingEnabled(UNSENT_CHANGELOG));
        return facts
                .process(() -> new SourceCounts<>(counting, grace, settings.sendInterval(), late),
                        Named.as(counting.name() + "-in-source"), counting.sourceStore(), counting.unsentStore())
                .groupByKey(Grouped.with(counting.byKey(), counting.keySerde(), CountFormats.updates(tally)))
                .windowedBy(TimeWindows.ofSizeAndGrace(minute, grace))
                .aggregate(() -> SourceTotals.none(tally), (key, update, totals) -> totals.with(update, tally),
                        Named.as(counting.aggregate()),
                        Materialized.<K, SourceTotals<C>>as(WindowStores.timestamped(counting.store(), retention, minute, formerRetention))
                                .withKeySerde(counting.keySerde()).withValueSerde(CountFormats.totals(tally)))
                .toStream(Named.as(counting.changes()))
                .mapValues(totals -> totals.total(tally), Named.as(counting.name() + "-total"));
    }

    /** Raw records → parsed facts, unusable ones to the dead letters, each (project, event id) once. */
    private static <F extends Fact> KStream<String, F> firstSightings(StreamsBuilder builder, String rawTopic,
                                                                      RawParser<F> parser, String seenStore,
                                                                      String deadLetters, Duration horizon,
                                                                      Duration lateMargin, DeadLetterCounts counts) {
        builder.addStateStore(FirstSighting.store(seenStore, horizon, lateMargin));
        return builder
                .stream(rawTopic, Consumed.with(Serdes.String(), Serdes.ByteArray()).withName(rawTopic + "-raw"))
                .<Parsed<F>>processValues(() -> new ParseRaw<>(parser), Named.as(rawTopic + "-parse"))
                .split(Named.as(rawTopic + "-parsed-"))
                .branch((token, parsed) -> parsed.failed(), Branched.withConsumer(unusable -> unusable
                        .<byte[]>processValues(() -> new ToDeadLetter<>(counts), Named.as(rawTopic + "-dead-letter"))
                        .to(deadLetters, Produced.with(Serdes.String(), Serdes.ByteArray())
                                .withName(rawTopic + "-to-dead-letters")), "unusable"))
                .defaultBranch(Branched.as("ok"))
                .get(rawTopic + "-parsed-ok")
                .mapValues(Parsed::fact, Named.as(rawTopic + "-fact"))
                .processValues(() -> new FirstSighting<>(seenStore), Named.as(rawTopic + "-first-sighting"), seenStore);
    }
}
