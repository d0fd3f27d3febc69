package io.sluice.processor.topology;

import java.util.List;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

import io.sluice.config.Aggregate;
import io.sluice.processor.rows.CountedRequest;
import io.sluice.processor.rows.ErrorHourRow;
import io.sluice.processor.rows.ErrorKey;
import io.sluice.processor.rows.ErrorRouteKey;
import io.sluice.processor.rows.ErrorRow;
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

/**
 * The processor's side of {@link Aggregate#ALL}: each aggregate it counts, in the groupings that
 * feed them, each with its key, its sums and its one row type (minute and hour rows alike). Store, repartition and processor names are what
 * running deployments hold (their state and changelogs): never change one.
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
    static final List<Grouping<?, ?, ?, ?>> ALL = List.of(TRAFFIC, REQUESTS, ERRORS, ERROR_ROUTES, SESSIONS);

    private CountedAggregates() {
    }

    /** Every aggregate the processor counts, each the name of its window store. */
    static List<Aggregate> counted() {
        return ALL.stream().flatMap(grouping -> grouping.aggregates().stream()).toList();
    }
}
