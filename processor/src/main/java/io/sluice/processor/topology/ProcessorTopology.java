package io.sluice.processor.topology;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

import io.sluice.config.Aggregate;
import io.sluice.config.Topics;
import io.sluice.processor.parse.ErrorParser;
import io.sluice.processor.parse.RawParser;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.parse.SessionParser;
import io.sluice.processor.parse.TransactionParser;
import io.sluice.processor.rows.ErrorFact;
import io.sluice.processor.rows.Fact;
import io.sluice.processor.rows.Generations;
import io.sluice.processor.rows.SessionFact;
import io.sluice.processor.rows.TransactionFact;

/**
 * The processor's whole dataflow, with no I/O of its own:
 * <pre>
 * raw transactions ─ parse ─┬─ unusable ─────────────────────────────────────────▶ dead letters
 *                           └─ first sighting of (project, event id) ─┬──────────▶ history
 *                                                                     ├─ handled requests only: count per project,
 *                                                                     │  environment, event-time minute ─▶ traffic-1m
 *                                                                     │                          and hour ─▶ traffic-1h
 *                                                                     └─ route limit ─ count per project, environment,
 *                                                                        op, route, method, status,
 *                                                                        release ───────────────────┬─ minute ─▶ requests-1m
 *                                                                                                   └─ hour ───▶ requests-1h
 * raw errors ─────── parse ─┬─ unusable ─────────────────────────────────────────▶ dead letters
 *                           └─ first sighting of (project, event id) ─┬──────────▶ error-history
 *                                                                     ├─ count per project, environment,
 *                                                                     │  exception type, minute ─▶ errors-1m
 *                                                                     └─ route limit ─ count per project, environment,
 *                                                                        route, exception type, hour ─▶ errors-1h
 * raw sessions ───── parse ─┬─ unusable ─────────────────────────────────────────▶ dead letters
 *                           └─ each count at its session's start ─ first sighting of (project, count id) ─
 *                              count per project, environment, release, hour ─▶ sessions-1h
 * </pre>
 * Every count is added up first in the task that reads the raw partition ({@link PartialCounts}, per
 * key and minute, or hour for errors-1h), and only those sums go through the repartition topic to
 * the task that keeps the key's window: a project is counted by every raw partition's task.
 * Records carry their event time as the Kafka timestamp (set by the gateway), so windows are
 * event-time minutes (and hours); a window stays open for the horizon plus a late margin, so late
 * events count in their minute and hour.
 * Output rows are absolute counts: the sink may write them any number of times.
 */
public final class ProcessorTopology {
    static final String SEEN_TRANSACTIONS = "seen-transactions";
    static final String SEEN_ERRORS = "seen-errors";
    static final String SEEN_SESSIONS = "seen-sessions";
    /**
     * How long a minute stays open beyond the horizon, unless configured. Stream time is the latest
     * event time seen, which runs ahead of a gateway's clock by the 60 s an event may lie in the
     * future, by the skew between gateways' clocks, and by how far this task lags behind the other
     * tasks that feed the same repartition partition (after a long restore, or an instance down):
     * without it, an event the gateway accepted at the edge of the horizon would find its minute
     * closed and not be counted. Also what the dedup memory keeps beyond the horizon. The window
     * stores keep horizon + margin of minutes.
     */
    public static final Duration DEFAULT_LATE_MARGIN = Duration.ofHours(2);
    private static final Serde<TransactionFact> TRANSACTIONS = HistoryJson.SERDE;
    private static final Serde<ErrorFact> ERRORS = JsonSerde.of(ErrorFact.class);
    private ProcessorTopology() {
    }

    /**
     * What the first-sighting filters of an instance may take unless configured: the ids of some 20
     * million events received within horizon + margin (a filter keeps up to two spans more than
     * the retention, each sized a quarter above the span before: about 3 bytes an event).
     */
    public static final long DEFAULT_FILTER_MEMORY_BYTES = 64L * 1024 * 1024;

    public static Topology build(Topics topics, Duration horizon) {
        return build(topics, horizon, 0, DEFAULT_LATE_MARGIN, new DeadLetterCounts());
    }

    public static Topology build(Topics topics, Duration horizon, int generation, Duration lateMargin,
                                 DeadLetterCounts deadLetters) {
        return build(topics, horizon, generation, lateMargin, deadLetters, new RecordsReadFromJson(),
                new FilterMemory(DEFAULT_FILTER_MEMORY_BYTES));
    }

    /**
     * @param generation of the aggregate rows' versions (raise it to recompute, see {@link Generations})
     * @param lateMargin how long a minute stays open beyond the horizon (see {@link #DEFAULT_LATE_MARGIN})
     * @param deadLetters counts the records sent to the dead letters
     * @param readFromJson counts the records whose fields are read from their JSON, not from the gateway's header
     * @param filterMemory what the instance's first-sighting filters may take ({@link SeenIdsFilter})
     */
    public static Topology build(Topics topics, Duration horizon, int generation, Duration lateMargin,
                                 DeadLetterCounts deadLetters, RecordsReadFromJson readFromJson, FilterMemory filterMemory) {
        return build(topics, horizon, generation, lateMargin, deadLetters, readFromJson, filterMemory,
                CardinalityLimits.defaults());
    }

    /**
     * @param limits routes, environments, exception types and releases per project and day before the rest count as
     *               {@code <other>} ({@link RouteLimit}, {@link FactLimit})
     */
    public static Topology build(Topics topics, Duration horizon, int generation, Duration lateMargin,
                                 DeadLetterCounts deadLetters, RecordsReadFromJson readFromJson, FilterMemory filterMemory,
                                 CardinalityLimits limits) {
        return build(topics, horizon, generation, lateMargin, deadLetters, readFromJson, filterMemory, limits, new PreAggregation());
    }

    /** @param preAggregation tallies which tasks added up transactions before the repartition ({@link PartialCounts}) */
    public static Topology build(Topics topics, Duration horizon, int generation, Duration lateMargin,
                                 DeadLetterCounts deadLetters, RecordsReadFromJson readFromJson, FilterMemory filterMemory,
                                 CardinalityLimits limits, PreAggregation preAggregation) {
        return build(topics, horizon, generation, lateMargin, deadLetters, readFromJson, filterMemory, limits, preAggregation, true);
    }

    /**
     * @param requestsByRoute false leaves out the transactions' per-route aggregates (their route limit, partial sums,
     *                        repartition and the requests_1m/requests_1h windows: SLUICE_PROCESSOR_REQUESTS_BY_ROUTE)
     */
    public static Topology build(Topics topics, Duration horizon, int generation, Duration lateMargin,
                                 DeadLetterCounts deadLetters, RecordsReadFromJson readFromJson, FilterMemory filterMemory,
                                 CardinalityLimits limits, PreAggregation preAggregation, boolean requestsByRoute) {
        StreamsBuilder builder = new StreamsBuilder();
        FactCounting counting = new FactCounting(builder, topics, horizon, lateMargin, generation, limits, preAggregation,
                grouping -> requestsByRoute || grouping != CountedAggregates.REQUESTS);

        KStream<String, TransactionFact> transactions = firstSightings(builder, topics.transactions(),
                new TransactionParser(readFromJson), SEEN_TRANSACTIONS, topics.deadLetters(), horizon, lateMargin, deadLetters,
                filterMemory);
        transactions.to(topics.history(), Produced.with(Serdes.String(), TRANSACTIONS).withName("history"));
        counting.count(transactions, CountedAggregates.OF_TRANSACTIONS);

        KStream<String, ErrorFact> errors = firstSightings(builder, topics.errors(),
                new ErrorParser(readFromJson), SEEN_ERRORS, topics.deadLetters(), horizon, lateMargin, deadLetters, filterMemory);
        errors.to(topics.errorHistory(), Produced.with(Serdes.String(), ERRORS).withName("error-history"));
        counting.count(errors, CountedAggregates.OF_ERRORS);

        // Each count of a session item once under its own id (SessionItems): a session's later
        // updates and a retried item count nothing again. Every update of a session lands in the
        // same raw partition (the gateway partitions them by session id), so one task sees them all.
        KStream<String, SessionFact> sessions = firstSighting(builder, parsed(builder, topics.sessions(), new SessionParser(),
                        topics.deadLetters(), deadLetters)
                        .processValues(SessionFacts::new, Named.as(topics.sessions() + "-counts")),
                topics.sessions(), SEEN_SESSIONS, horizon, lateMargin, filterMemory);
        counting.count(sessions, CountedAggregates.OF_SESSIONS);

        return builder.build();
    }

    /**
     * The retention each of the topology's window stores is built with, by store name. Kafka Streams
     * creates a store's changelog ({@code <application id>-<store>-changelog}) with this retention
     * plus {@code windowstore.changelog.additional.retention.ms}, and never changes it afterwards.
     */
    public static Map<String, Duration> windowStoreRetentions(Duration horizon, Duration lateMargin) {
        Duration outcomes = WindowChain.retention(Aggregate.OUTCOMES_1M, horizon, lateMargin);
        Duration seen = FirstSighting.retention(horizon, lateMargin);
        Duration limits = RouteLimit.retention(horizon, lateMargin);
        Map<String, Duration> retentions = new HashMap<>(Map.of(SEEN_TRANSACTIONS, seen, SEEN_ERRORS, seen, SEEN_SESSIONS, seen));
        CountedAggregates.counted().forEach(aggregate -> retentions.put(aggregate.name(), WindowChain.retention(aggregate, horizon, lateMargin)));
        for (FactCounts<?> facts : CountedAggregates.FACTS) {
            facts.limitStores().forEach(store -> retentions.put(store, limits));
            retentions.put(facts.outcomesStore(), outcomes);
        }
        return Map.copyOf(retentions);
    }

    /**
     * The most RocksDB instances each of the topology's stores holds in one task (a store's
     * segments), by store name: what sizing an instance's memory counts per partition it owns.
     */
    public static Map<String, Long> rocksDbInstancesAtMost(Duration horizon, Duration lateMargin) {
        long seen = WindowStores.segmentsAtMost(FirstSighting.retention(horizon, lateMargin), FirstSighting.segmentBasis(horizon));
        long limits = WindowStores.segmentsAtMost(RouteLimit.retention(horizon, lateMargin), RouteLimit.segmentBasis(horizon));
        Map<String, Long> instances = new HashMap<>(Map.of(SEEN_TRANSACTIONS, seen, SEEN_ERRORS, seen, SEEN_SESSIONS, seen));
        CountedAggregates.counted().forEach(aggregate -> instances.put(aggregate.name(), WindowStores.segmentsAtMost(
                WindowChain.retention(aggregate, horizon, lateMargin), WindowChain.segmentBasis(aggregate, horizon))));
        CountedAggregates.FACTS.forEach(facts -> facts.limitStores().forEach(store -> instances.put(store, limits)));
        return Map.copyOf(instances);
    }

    /** Raw records → parsed facts, unusable ones to the dead letters, each (project, event id) once. */
    private static <F extends Fact> KStream<String, F> firstSightings(StreamsBuilder builder, String rawTopic,
                                                                      RawParser<F> parser, String seenStore,
                                                                      String deadLetters, Duration horizon,
                                                                      Duration lateMargin, DeadLetterCounts counts,
                                                                      FilterMemory filterMemory) {
        return firstSighting(builder, parsed(builder, rawTopic, parser, deadLetters, counts), rawTopic, seenStore, horizon, lateMargin,
                filterMemory);
    }

    /** Each (project, event id) of {@code facts} once. */
    private static <F extends Fact> KStream<String, F> firstSighting(StreamsBuilder builder, KStream<String, F> facts, String rawTopic,
                                                                     String seenStore, Duration horizon, Duration lateMargin,
                                                                     FilterMemory filterMemory) {
        builder.addStateStore(FirstSighting.store(seenStore, horizon, lateMargin));
        return facts.processValues(() -> new FirstSighting<>(seenStore, horizon, lateMargin, filterMemory),
                Named.as(rawTopic + "-first-sighting"), seenStore);
    }

    /** Raw records → parsed facts, unusable ones to the dead letters. */
    private static <F extends Fact> KStream<String, F> parsed(StreamsBuilder builder, String rawTopic, RawParser<F> parser,
                                                              String deadLetters, DeadLetterCounts counts) {
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
                .mapValues(Parsed::fact, Named.as(rawTopic + "-fact"));
    }
}
