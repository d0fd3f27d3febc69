package io.sluice.processor.topology;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;

import io.sluice.config.Topics;
import io.sluice.processor.parse.ErrorParser;
import io.sluice.processor.parse.RawParser;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.parse.TransactionParser;
import io.sluice.processor.rows.ErrorFact;
import io.sluice.processor.rows.ErrorHourRow;
import io.sluice.processor.rows.ErrorKey;
import io.sluice.processor.rows.ErrorRouteKey;
import io.sluice.processor.rows.ErrorRow;
import io.sluice.processor.rows.Fact;
import io.sluice.processor.rows.Generations;
import io.sluice.processor.rows.HandledRequests;
import io.sluice.processor.rows.RequestCounts;
import io.sluice.processor.rows.RequestHourRow;
import io.sluice.processor.rows.RequestKey;
import io.sluice.processor.rows.RequestRow;
import io.sluice.processor.rows.TrafficCounts;
import io.sluice.processor.rows.TrafficHourRow;
import io.sluice.processor.rows.TrafficKey;
import io.sluice.processor.rows.TrafficRow;
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
 *                                                                        op, route, method, status ─┬─ minute ─▶ requests-1m
 *                                                                                                   └─ hour ───▶ requests-1h
 * raw errors ─────── parse ─┬─ unusable ─────────────────────────────────────────▶ dead letters
 *                           └─ first sighting of (project, event id) ─┬──────────▶ error-history
 *                                                                     ├─ count per project, environment,
 *                                                                     │  exception type, minute ─▶ errors-1m
 *                                                                     └─ route limit ─ count per project, environment,
 *                                                                        route, exception type, hour ─▶ errors-1h
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
    static final String TRAFFIC_1M = "traffic-1m";
    static final String TRAFFIC_1H = "traffic-1h";
    static final String ERRORS_1M = "errors-1m";
    static final String REQUESTS_1M = "requests-1m";
    static final String REQUESTS_1H = "requests-1h";
    static final String ERRORS_1H = "errors-1h";
    static final String TRANSACTION_ROUTES = "transaction-routes";
    static final String ERROR_ROUTES = "error-routes";
    static final String TRANSACTION_NAMES = "transaction-names";
    static final String ERROR_NAMES = "error-names";
    static final String TRANSACTION_OUTCOMES = "transaction-outcomes";
    static final String ERROR_OUTCOMES = "error-outcomes";
    static final String TRAFFIC_PARTIALS = "traffic-partials";
    static final String REQUEST_PARTIALS = "request-partials";
    static final String ERROR_PARTIALS = "error-partials";
    static final String ERROR_ROUTE_PARTIALS = "error-route-partials";
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
    private static final Serde<TransactionFact> TRANSACTIONS = JsonSerde.of(TransactionFact.class);
    private static final Serde<ErrorFact> ERRORS = JsonSerde.of(ErrorFact.class);
    /**
     * The grouping keys: their JSON is the repartition records' key and the window stores' key,
     * so it stays as it always was (it decides partitions and finds stored counts), only made once per key.
     */
    private static final Serde<TrafficKey> TRAFFIC_KEYS = MemoizedSerde.of(JsonSerde.of(TrafficKey.class));
    private static final Serde<ErrorKey> ERROR_KEYS = MemoizedSerde.of(JsonSerde.of(ErrorKey.class));
    private static final Serde<RequestKey> REQUEST_KEYS = MemoizedSerde.of(JsonSerde.of(RequestKey.class));
    private static final Serde<ErrorRouteKey> ERROR_ROUTE_KEYS = MemoizedSerde.of(JsonSerde.of(ErrorRouteKey.class));
    /** A transaction's duration when it had none (what {@link RequestCounts#add} takes for none). */
    private static final double NO_DURATION = -1;
    /** What travels through the repartition topics: partial sums ({@link PartialCounts}). */
    private static final Serde<TrafficCounts> TRAFFIC_SUMS = PartialSerdes.traffic();
    private static final Serde<RequestCounts> REQUEST_SUMS = PartialSerdes.requests();
    private static final Serde<Long> ERROR_SUMS = PartialSerdes.errors();

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
     * @param limits routes, environments and exception types per project and day before the rest count as
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
     * @param perRouteTransactions false leaves out the transactions' per-route aggregates (their route limit, partial sums,
     *                             repartition and the requests_1m/requests_1h windows): only to measure what they cost
     *                             (ProcessorThroughputHarness, bench), never in a deployment
     */
    public static Topology build(Topics topics, Duration horizon, int generation, Duration lateMargin,
                                 DeadLetterCounts deadLetters, RecordsReadFromJson readFromJson, FilterMemory filterMemory,
                                 CardinalityLimits limits, PreAggregation preAggregation, boolean perRouteTransactions) {
        StreamsBuilder builder = new StreamsBuilder();
        Duration minute = Duration.ofMinutes(1);
        Duration hour = Duration.ofHours(1);
        TimeWindows minutes = TimeWindows.ofSizeAndGrace(minute, horizon.plus(lateMargin));
        TimeWindows hours = TimeWindows.ofSizeAndGrace(hour, horizon.plus(lateMargin));
        Duration countsRetention = countsRetention(horizon, lateMargin);
        Duration formerRetention = countsFormerRetention(horizon);
        Duration hourlyRetention = hourlyRetention(horizon, lateMargin);
        Duration hourlyFormerRetention = hourlyFormerRetention(horizon);

        KStream<String, TransactionFact> transactions = firstSightings(builder, topics.transactions(),
                new TransactionParser(readFromJson), SEEN_TRANSACTIONS, topics.deadLetters(), horizon, lateMargin, deadLetters,
                filterMemory);
        transactions.to(topics.history(), Produced.with(Serdes.String(), TRANSACTIONS).withName("history"));
        builder.addStateStore(FactLimit.store(TRANSACTION_NAMES, horizon, lateMargin));
        KStream<String, Limited<TransactionFact>> limitedTransactions = transactions.processValues(
                () -> new FactLimit<>(TRANSACTION_NAMES, limits, List.of(new FactLimit.Dimension<>(LimitedName.ENVIRONMENT,
                        TransactionFact::environment, TransactionFact::withEnvironment))),
                Named.as("limit-transaction-names"), TRANSACTION_NAMES);
        KStream<String, TransactionFact> countedTransactions = limitedTransactions.mapValues(Limited::value, Named.as("transaction-named"));
        // Added up per minute in the raw partition's task (PartialCounts), after the names are limited
        // (so <other> is summed too): only the sums travel through the repartition topic, so a
        // project's traffic is counted by every raw partition's task.
        // One grouping feeds both windows, as for requests: the hour its own absolute count.
        builder.addStateStore(PartialCounts.store(TRAFFIC_PARTIALS));
        KGroupedStream<TrafficKey, TrafficCounts> traffic = countedTransactions
                .filter((token, fact) -> HandledRequests.is(fact), Named.as("handled-requests"))
                .map((token, fact) -> KeyValue.pair(new TrafficKey(fact.project(), fact.environment()),
                        fact.statusCode() == null ? 0 : fact.statusCode()), Named.as("traffic-status"))
                .process(() -> new PartialCounts<TrafficKey, Integer, TrafficCounts>(TRAFFIC_PARTIALS, minute, TrafficCounts.NONE,
                                (counts, status) -> counts.add(status == 0 ? null : status), TRAFFIC_KEYS, TRAFFIC_SUMS,
                                PreAggregation.Tally.NONE),
                        Named.as("traffic-partials"), TRAFFIC_PARTIALS)
                .groupByKey(Grouped.with("traffic-by-environment", TRAFFIC_KEYS, TRAFFIC_SUMS));
        traffic.windowedBy(minutes)
                .aggregate(() -> TrafficCounts.NONE, (key, partial, counts) -> counts.plus(partial),
                        Named.as("count-traffic"),
                        Materialized.<TrafficKey, TrafficCounts>as(
                                        WindowStores.timestamped(TRAFFIC_1M, countsRetention, minute, formerRetention))
                                .withKeySerde(TRAFFIC_KEYS).withValueSerde(TrafficCountsSerde.create()))
                .toStream(Named.as("traffic-changes"))
                .map((window, counts) -> {
                    TrafficRow row = TrafficRow.of(window.key(), window.window().start(), counts, generation);
                    return KeyValue.pair(row.project() + '/' + row.environment() + '/' + row.minute(), row);
                }, Named.as("traffic-row"))
                .to(topics.traffic(), Produced.with(Serdes.String(), JsonSerde.of(TrafficRow.class)).withName("traffic-1m-out"));
        traffic.windowedBy(hours)
                .aggregate(() -> TrafficCounts.NONE, (key, partial, counts) -> counts.plus(partial), Named.as("count-traffic-1h"),
                        Materialized.<TrafficKey, TrafficCounts>as(
                                        WindowStores.timestamped(TRAFFIC_1H, hourlyRetention, hour, hourlyFormerRetention))
                                .withKeySerde(TRAFFIC_KEYS).withValueSerde(TrafficCountsSerde.create()))
                .toStream(Named.as("traffic-1h-changes"))
                .map((window, counts) -> {
                    TrafficHourRow row = TrafficHourRow.of(window.key(), window.window().start(), counts, generation);
                    return KeyValue.pair(row.topicKey(), row);
                }, Named.as("traffic-1h-row"))
                .to(topics.traffic1h(), Produced.with(Serdes.String(), JsonSerde.of(TrafficHourRow.class)).withName("traffic-1h-out"));

        KStream<String, LimitedName> transactionCollapses = collapsedNames(limitedTransactions, "transaction");
        if (perRouteTransactions) {
            // Every kind of transaction, by route, added up per minute in the raw partition's task
            // after its route is limited. One grouping feeds both windows: one repartition topic, the
            // hour its own absolute count (a minute's sum, timestamped at the minute's start, falls into its hour).
            builder.addStateStore(RouteLimit.store(TRANSACTION_ROUTES, horizon, lateMargin));
            builder.addStateStore(PartialCounts.store(REQUEST_PARTIALS));
            KStream<RequestKey, Limited<Double>> limitedRequests = countedTransactions
                    .map((token, fact) -> KeyValue.pair(RequestKey.of(fact), fact.durationMs() == null ? NO_DURATION : fact.durationMs()),
                            Named.as("request-key"))
                    .process(() -> new RouteLimit<RequestKey, Double>(TRANSACTION_ROUTES, limits), Named.as("limit-request-routes"),
                            TRANSACTION_ROUTES);
            transactionCollapses = transactionCollapses.merge(collapsedRoutes(limitedRequests, "request"), Named.as(TRANSACTION_OUTCOMES + "-collapsed"));
            KGroupedStream<RequestKey, RequestCounts> requests = limitedRequests
                    .mapValues(Limited::value, Named.as("request-routed"))
                    .process(() -> new PartialCounts<RequestKey, Double, RequestCounts>(REQUEST_PARTIALS, minute, RequestCounts.NONE,
                                    RequestCounts::add, REQUEST_KEYS, REQUEST_SUMS, preAggregation.transactions()),
                            Named.as("request-partials"), REQUEST_PARTIALS)
                    .groupByKey(Grouped.with("requests-by-route", REQUEST_KEYS, REQUEST_SUMS));
            requests.windowedBy(minutes)
                    .aggregate(() -> RequestCounts.NONE, (key, partial, counts) -> counts.plus(partial), Named.as("count-requests-1m"),
                            Materialized.<RequestKey, RequestCounts>as(
                                            WindowStores.timestamped(REQUESTS_1M, countsRetention, minute, formerRetention))
                                    .withKeySerde(REQUEST_KEYS).withValueSerde(RequestCountsSerde.create()))
                    .toStream(Named.as("requests-1m-changes"))
                    .map((window, counts) -> {
                        RequestRow row = RequestRow.of(window.key(), window.window().start(), counts, generation);
                        return KeyValue.pair(row.topicKey(), row);
                    }, Named.as("requests-1m-row"))
                    .to(topics.requests1m(), Produced.with(Serdes.String(), JsonSerde.of(RequestRow.class)).withName("requests-1m-out"));
            requests.windowedBy(hours)
                    .aggregate(() -> RequestCounts.NONE, (key, partial, counts) -> counts.plus(partial), Named.as("count-requests-1h"),
                            Materialized.<RequestKey, RequestCounts>as(
                                            WindowStores.timestamped(REQUESTS_1H, hourlyRetention, hour, hourlyFormerRetention))
                                    .withKeySerde(REQUEST_KEYS).withValueSerde(RequestCountsSerde.create()))
                    .toStream(Named.as("requests-1h-changes"))
                    .map((window, counts) -> {
                        RequestHourRow row = RequestHourRow.of(window.key(), window.window().start(), counts, generation);
                        return KeyValue.pair(row.topicKey(), row);
                    }, Named.as("requests-1h-row"))
                    .to(topics.requests1h(), Produced.with(Serdes.String(), JsonSerde.of(RequestHourRow.class)).withName("requests-1h-out"));
        }
        countCollapsed(builder, transactionCollapses, TRANSACTION_OUTCOMES, topics.outcomes(), countsRetention);

        KStream<String, ErrorFact> errors = firstSightings(builder, topics.errors(),
                new ErrorParser(readFromJson), SEEN_ERRORS, topics.deadLetters(), horizon, lateMargin, deadLetters, filterMemory);
        errors.to(topics.errorHistory(), Produced.with(Serdes.String(), ERRORS).withName("error-history"));
        builder.addStateStore(FactLimit.store(ERROR_NAMES, horizon, lateMargin));
        KStream<String, Limited<ErrorFact>> limitedErrors = errors.processValues(
                () -> new FactLimit<>(ERROR_NAMES, limits, List.of(
                        new FactLimit.Dimension<>(LimitedName.ENVIRONMENT, ErrorFact::environment, ErrorFact::withEnvironment),
                        new FactLimit.Dimension<>(LimitedName.EXCEPTION_TYPE, ErrorFact::exceptionType, ErrorFact::withExceptionType,
                                fact -> ErrorKey.of(fact).series()))),
                Named.as("limit-error-names"), ERROR_NAMES);
        KStream<String, ErrorFact> countedErrors = limitedErrors.mapValues(Limited::value, Named.as("error-named"));
        builder.addStateStore(PartialCounts.store(ERROR_PARTIALS));
        countedErrors.map((token, fact) -> KeyValue.pair(new ErrorKey(fact.project(), fact.environment(), fact.exceptionType()), 1L),
                        Named.as("error-type"))
                .process(() -> new PartialCounts<ErrorKey, Long, Long>(ERROR_PARTIALS, minute, 0L, Long::sum, ERROR_KEYS, ERROR_SUMS,
                                PreAggregation.Tally.NONE),
                        Named.as("error-partials"), ERROR_PARTIALS)
                .groupByKey(Grouped.with("errors-by-type", ERROR_KEYS, ERROR_SUMS))
                .windowedBy(minutes)
                .aggregate(() -> 0L, (key, partial, count) -> count + partial, Named.as("count-errors"), Materialized.<ErrorKey, Long>as(
                        WindowStores.timestamped(ERRORS_1M, countsRetention, minute, formerRetention))
                        .withKeySerde(ERROR_KEYS).withValueSerde(Serdes.Long()))
                .toStream(Named.as("error-changes"))
                .map((window, count) -> {
                    ErrorRow row = ErrorRow.of(window.key(), window.window().start(), count, generation);
                    return KeyValue.pair(row.project() + '/' + row.environment() + '/' + row.minute() + '/' + row.exceptionType(), row);
                }, Named.as("error-row"))
                .to(topics.errors1m(), Produced.with(Serdes.String(), JsonSerde.of(ErrorRow.class)).withName("errors-1m-out"));

        builder.addStateStore(RouteLimit.store(ERROR_ROUTES, horizon, lateMargin));
        builder.addStateStore(PartialCounts.store(ERROR_ROUTE_PARTIALS));
        KStream<ErrorRouteKey, Limited<Long>> limitedErrorRoutes = countedErrors
                .map((token, fact) -> KeyValue.pair(ErrorRouteKey.of(fact), 1L), Named.as("error-route-key"))
                .process(() -> new RouteLimit<ErrorRouteKey, Long>(ERROR_ROUTES, limits), Named.as("limit-error-routes"), ERROR_ROUTES);
        countCollapsed(builder, collapsedNames(limitedErrors, "error").merge(collapsedRoutes(limitedErrorRoutes, "error-route"),
                Named.as(ERROR_OUTCOMES + "-collapsed")), ERROR_OUTCOMES, topics.outcomes(), countsRetention);
        limitedErrorRoutes.mapValues(Limited::value, Named.as("error-routed"))
                .process(() -> new PartialCounts<ErrorRouteKey, Long, Long>(ERROR_ROUTE_PARTIALS, hour, 0L, Long::sum, ERROR_ROUTE_KEYS,
                                ERROR_SUMS, PreAggregation.Tally.NONE),
                        Named.as("error-route-partials"), ERROR_ROUTE_PARTIALS)
                .groupByKey(Grouped.with("errors-by-route", ERROR_ROUTE_KEYS, ERROR_SUMS))
                .windowedBy(hours)
                .aggregate(() -> 0L, (key, partial, count) -> count + partial, Named.as("count-errors-1h"), Materialized.<ErrorRouteKey, Long>as(
                                WindowStores.timestamped(ERRORS_1H, hourlyRetention, hour, hourlyFormerRetention))
                        .withKeySerde(ERROR_ROUTE_KEYS).withValueSerde(Serdes.Long()))
                .toStream(Named.as("errors-1h-changes"))
                .map((window, count) -> {
                    ErrorHourRow row = ErrorHourRow.of(window.key(), window.window().start(), count, generation);
                    return KeyValue.pair(row.topicKey(), row);
                }, Named.as("errors-1h-row"))
                .to(topics.errors1h(), Produced.with(Serdes.String(), JsonSerde.of(ErrorHourRow.class)).withName("errors-1h-out"));

        return builder.build();
    }

    /**
     * The retention each of the topology's window stores is built with, by store name. Kafka Streams
     * creates a store's changelog ({@code <application id>-<store>-changelog}) with this retention
     * plus {@code windowstore.changelog.additional.retention.ms}, and never changes it afterwards.
     */
    public static Map<String, Duration> windowStoreRetentions(Duration horizon, Duration lateMargin) {
        Duration counts = countsRetention(horizon, lateMargin);
        Duration hourly = hourlyRetention(horizon, lateMargin);
        Duration seen = FirstSighting.retention(horizon, lateMargin);
        Duration routes = RouteLimit.retention(horizon, lateMargin);
        return Map.ofEntries(Map.entry(TRAFFIC_1M, counts), Map.entry(ERRORS_1M, counts), Map.entry(REQUESTS_1M, counts),
                Map.entry(REQUESTS_1H, hourly), Map.entry(ERRORS_1H, hourly), Map.entry(TRAFFIC_1H, hourly), Map.entry(SEEN_TRANSACTIONS, seen),
                Map.entry(SEEN_ERRORS, seen), Map.entry(TRANSACTION_ROUTES, routes), Map.entry(ERROR_ROUTES, routes),
                Map.entry(TRANSACTION_NAMES, routes), Map.entry(ERROR_NAMES, routes), Map.entry(TRANSACTION_OUTCOMES, counts),
                Map.entry(ERROR_OUTCOMES, counts));
    }

    /** Kept for size + grace, what an open minute needs. */
    private static Duration countsRetention(Duration horizon, Duration lateMargin) {
        return Duration.ofMinutes(1).plus(horizon).plus(lateMargin);
    }

    /** Before the margin, the counts were kept a minute + horizon (it sets the segments). */
    private static Duration countsFormerRetention(Duration horizon) {
        return Duration.ofMinutes(1).plus(horizon);
    }

    /** Kept for size + grace, what an open hour needs. */
    private static Duration hourlyRetention(Duration horizon, Duration lateMargin) {
        return Duration.ofHours(1).plus(horizon).plus(lateMargin);
    }

    /** Sets the hourly stores' segments: from the horizon only, so a changed margin keeps them (see {@link WindowStores}). */
    private static Duration hourlyFormerRetention(Duration horizon) {
        return Duration.ofHours(1).plus(horizon);
    }

    /**
     * The most RocksDB instances each of the topology's stores holds in one task (a store's
     * segments), by store name: what sizing an instance's memory counts per partition it owns.
     */
    public static Map<String, Long> rocksDbInstancesAtMost(Duration horizon, Duration lateMargin) {
        long counts = WindowStores.segmentsAtMost(countsRetention(horizon, lateMargin), countsFormerRetention(horizon));
        long hourly = WindowStores.segmentsAtMost(hourlyRetention(horizon, lateMargin), hourlyFormerRetention(horizon));
        long seen = WindowStores.segmentsAtMost(FirstSighting.retention(horizon, lateMargin), FirstSighting.formerRetention(horizon));
        long routes = WindowStores.segmentsAtMost(RouteLimit.retention(horizon, lateMargin), RouteLimit.formerRetention(horizon));
        return Map.ofEntries(Map.entry(TRAFFIC_1M, counts), Map.entry(ERRORS_1M, counts), Map.entry(REQUESTS_1M, counts),
                Map.entry(REQUESTS_1H, hourly), Map.entry(ERRORS_1H, hourly), Map.entry(TRAFFIC_1H, hourly), Map.entry(SEEN_TRANSACTIONS, seen),
                Map.entry(SEEN_ERRORS, seen), Map.entry(TRANSACTION_ROUTES, routes), Map.entry(ERROR_ROUTES, routes),
                Map.entry(TRANSACTION_NAMES, routes), Map.entry(ERROR_NAMES, routes));
    }

    /** (project, name) for each name of a fact the limit counted under {@code <other>}. */
    private static <F extends Fact> KStream<String, LimitedName> collapsedNames(KStream<String, Limited<F>> limited, String what) {
        return limited.flatMap((token, fact) -> fact.collapsed().stream().map(name -> KeyValue.pair(fact.value().project(), name)).toList(),
                Named.as(what + "-names-collapsed"));
    }

    /** (project, route) for each record the route limit counted under {@code <other>}. */
    private static <K extends io.sluice.processor.rows.RoutedKey<K>, V> KStream<String, LimitedName> collapsedRoutes(
            KStream<K, Limited<V>> limited, String what) {
        return limited.flatMap((key, value) -> value.collapsed().stream().map(name -> KeyValue.pair(key.project(), name)).toList(),
                Named.as(what + "-routes-collapsed"));
    }

    /**
     * Outcomes of the events the limits counted under {@code <other>}, counted in the raw partition's
     * task (no repartition: the counter is the partition, see {@link CollapsedOutcomes}).
     */
    private static void countCollapsed(StreamsBuilder builder, KStream<String, LimitedName> collapsed, String store,
                                       String outcomesTopic, Duration retention) {
        builder.addStateStore(CollapsedOutcomes.store(store, retention));
        collapsed.process(() -> new CollapsedOutcomes(store), Named.as(store + "-count"), store)
                .to(outcomesTopic, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()).withName(store + "-out"));
    }

    /** Raw records → parsed facts, unusable ones to the dead letters, each (project, event id) once. */
    private static <F extends Fact> KStream<String, F> firstSightings(StreamsBuilder builder, String rawTopic,
                                                                      RawParser<F> parser, String seenStore,
                                                                      String deadLetters, Duration horizon,
                                                                      Duration lateMargin, DeadLetterCounts counts,
                                                                      FilterMemory filterMemory) {
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
                .processValues(() -> new FirstSighting<>(seenStore, horizon, lateMargin, filterMemory), Named.as(rawTopic + "-first-sighting"), seenStore);
    }
}
