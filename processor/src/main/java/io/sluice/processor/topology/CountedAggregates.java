package io.sluice.processor.topology;

import java.util.List;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;

import io.sluice.config.Aggregate;
import io.sluice.processor.rows.CountedRequest;
import io.sluice.processor.rows.ErrorFact;
import io.sluice.processor.rows.ErrorHourRow;
import io.sluice.processor.rows.ErrorKey;
import io.sluice.processor.rows.ErrorRouteKey;
import io.sluice.processor.rows.ErrorRow;
import io.sluice.processor.rows.HandledRequests;
import io.sluice.processor.rows.KeyText;
import io.sluice.processor.rows.RequestCounts;
import io.sluice.processor.rows.RequestKey;
import io.sluice.processor.rows.RequestRow;
import io.sluice.processor.rows.SessionCounts;
import io.sluice.processor.rows.SessionFact;
import io.sluice.processor.rows.SessionHourRow;
import io.sluice.processor.rows.SessionKey;
import io.sluice.processor.rows.TrafficCounts;
import io.sluice.processor.rows.TrafficKey;
import io.sluice.processor.rows.TrafficRow;
import io.sluice.processor.rows.TransactionFact;

/**
 * The processor's side of {@link Aggregate#ALL}: each aggregate it counts, in the groupings that
 * feed them, each with its key, its sums and its one row type (minute and hour rows alike); each
 * grouping fed by a kind of fact ({@link Feed}: which facts, their key and value, the route limit),
 * and each kind with the names bounded per project and day in all of its aggregates
 * ({@link FactCounts}). The topology reads these declarations. Store, repartition and processor
 * names are what running deployments hold (their state and changelogs): never change one.
 */
final class CountedAggregates {
    /**
     * The grouping keys: their JSON is the repartition records' key and the window stores' key,
     * so it stays as it always was (it decides partitions and finds stored counts), only made once per key.
     */
    private static final Serde<TrafficKey> TRAFFIC_KEYS = MemoizedSerde.of(JsonSerde.of(TrafficKey.class));
    private static final Serde<ErrorKey> ERROR_KEYS = MemoizedSerde.of(JsonSerde.of(ErrorKey.class));
    private static final Serde<RequestKey> REQUEST_KEYS = MemoizedSerde.of(JsonSerde.of(RequestKey.class));
    private static final Serde<ErrorRouteKey> ERROR_ROUTE_KEYS = MemoizedSerde.of(JsonSerde.of(ErrorRouteKey.class));
    private static final Serde<SessionKey> SESSION_KEYS = MemoizedSerde.of(JsonSerde.of(SessionKey.class));
    /** A handled request. */
    static final Grouping<TrafficKey, CountedRequest, TrafficCounts, TrafficRow> TRAFFIC = new Grouping<>("traffic-partials",
            "traffic-by-environment", TRAFFIC_KEYS, PartialSerdes.traffic(), TrafficCountsSerde::create, TrafficCounts.NONE,
            (counts, request) -> counts.add(request.statusCode(), request.weightMillionths()), TrafficCounts::plus,
            TrafficRow::of, TrafficRow.class, List.of(Aggregate.TRAFFIC_1M, Aggregate.TRAFFIC_1H));
    /** A transaction. */
    static final Grouping<RequestKey, CountedRequest, RequestCounts, RequestRow> REQUESTS = new Grouping<>("request-partials",
            "requests-by-route", REQUEST_KEYS, PartialSerdes.requests(), RequestCountsSerde::create, RequestCounts.NONE,
            (counts, request) -> counts.add(request.durationMs(), request.weightMillionths()), RequestCounts::plus,
            RequestRow::of, RequestRow.class, List.of(Aggregate.REQUESTS_1M, Aggregate.REQUESTS_1H));
    /** One error. */
    static final Grouping<ErrorKey, Long, Long, ErrorRow> ERRORS = new Grouping<>("error-partials", "errors-by-type", ERROR_KEYS,
            PartialSerdes.errors(), Serdes::Long, 0L, Long::sum, Long::sum, ErrorRow::of, ErrorRow.class, List.of(Aggregate.ERRORS_1M));
    /** One error. */
    static final Grouping<ErrorRouteKey, Long, Long, ErrorHourRow> ERROR_ROUTES = new Grouping<>("error-route-partials",
            "errors-by-route", ERROR_ROUTE_KEYS, PartialSerdes.errors(), Serdes::Long, 0L, Long::sum, Long::sum, ErrorHourRow::of,
            ErrorHourRow.class, List.of(Aggregate.ERRORS_1H));
    /** A count of sessions (far fewer than transactions: JSON sums). */
    static final Grouping<SessionKey, SessionFact, SessionCounts, SessionHourRow> SESSIONS = new Grouping<>("session-partials",
            "sessions-by-release", SESSION_KEYS, JsonSerde.of(SessionCounts.class), () -> JsonSerde.of(SessionCounts.class),
            SessionCounts.NONE, SessionCounts::add, SessionCounts::plus, SessionHourRow::of, SessionHourRow.class,
            List.of(Aggregate.SESSIONS_1H));

    /** Transactions: their environments and releases bounded; the handled requests counted as traffic, every transaction by route. */
    static final FactCounts<TransactionFact> OF_TRANSACTIONS = new FactCounts<>("transaction", List.of(
            new FactLimit.Dimension<>(LimitedName.ENVIRONMENT, TransactionFact::environment, TransactionFact::withEnvironment),
            new FactLimit.Dimension<>(LimitedName.RELEASE, TransactionFact::release, TransactionFact::withRelease)),
            List.of(Feed.of(TRAFFIC, "traffic-status",
                            (TransactionFact fact) -> KeyValue.pair(new TrafficKey(fact.project(), fact.environment()), CountedRequest.of(fact)))
                            .only("handled-requests", HandledRequests::is),
                    Feed.of(REQUESTS, "request-key", (TransactionFact fact) -> KeyValue.pair(RequestKey.of(fact), CountedRequest.of(fact)))
                            .limitedBy(Feed.Routes.of("transaction-routes", "limit-request-routes", "request-routes-collapsed",
                                    "request-routed"))
                            .tallied(PreAggregation::transactions)));
    /** Errors: their environments and exception types bounded, the exception types also jointly with the environment. */
    static final FactCounts<ErrorFact> OF_ERRORS = new FactCounts<>("error", List.of(
            new FactLimit.Dimension<>(LimitedName.ENVIRONMENT, ErrorFact::environment, ErrorFact::withEnvironment),
            new FactLimit.Dimension<>(LimitedName.EXCEPTION_TYPE, ErrorFact::exceptionType, ErrorFact::withExceptionType,
                    fact -> ErrorKey.of(fact).series())),
            List.of(Feed.of(ERRORS, "error-type", (ErrorFact fact) -> KeyValue.pair(ErrorKey.of(fact), 1L)),
                    Feed.of(ERROR_ROUTES, "error-route-key", (ErrorFact fact) -> KeyValue.pair(ErrorRouteKey.of(fact), 1L))
                            .limitedBy(Feed.Routes.of("error-routes", "limit-error-routes", "error-route-routes-collapsed", "error-routed"))));
    /**
     * Counts of sessions: environments and releases bounded as the requests' are (a new release per
     * session would otherwise add a row per session), the releases also jointly with the environment.
     */
    static final FactCounts<SessionFact> OF_SESSIONS = new FactCounts<>("session", List.of(
            new FactLimit.Dimension<>(LimitedName.ENVIRONMENT, SessionFact::environment, SessionFact::withEnvironment),
            new FactLimit.Dimension<>(LimitedName.RELEASE, SessionFact::release, SessionFact::withRelease,
                    fact -> KeyText.nul(fact.environment(), fact.release()))),
            List.of(Feed.of(SESSIONS, "session-key", (SessionFact fact) -> KeyValue.pair(SessionKey.of(fact), fact))));
    static final List<FactCounts<?>> FACTS = List.of(OF_TRANSACTIONS, OF_ERRORS, OF_SESSIONS);

    private CountedAggregates() {
    }

    /** Every aggregate the processor counts, each the name of its window store. */
    static List<Aggregate> counted() {
        return FACTS.stream().flatMap(facts -> facts.feeds().stream()).flatMap(feed -> feed.grouping().aggregates().stream()).toList();
    }
}
