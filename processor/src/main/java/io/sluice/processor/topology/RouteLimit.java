package io.sluice.processor.topology;

import java.time.Duration;
import java.util.List;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

import io.sluice.processor.rows.KeyText;
import io.sluice.processor.rows.RoutedKey;

/**
 * The per-project route limit: of the routes a project's events bring in one event-time day (UTC),
 * the first {@code routesPerDay} this task meets are counted under their name, every later one
 * under {@link RoutedKey#OTHER_ROUTE}, so a tenant sending random paths adds at most that many
 * routes a day to the aggregates. A second bound does the same for series
 * ({@link RoutedKey#fullSeries}: every field of the aggregate's key, the environment included;
 * {@link CardinalityLimits#seriesPerDay}), so that no mix of routes, methods, status codes,
 * exception types and environments makes more keys than it: beyond it the event counts under
 * {@code <other>} too. The series under {@code <other>} take room in the same allowance; an event
 * whose {@code <other>} series finds none counts in environment {@code <other>} as well, among keys
 * made only of names bounded on their own (a known op or {@code <other>}, HTTP's methods, the status
 * codes; or the exception types). Runs in the task that reads the raw partition, after first
 * sighting: the decisions follow the partition's order, so a recompute from the same topic makes
 * the same ones, and the store is restored with the rest of the task's state. Each task (raw
 * partition) keeps its own count, so a project's routes and series of a day are at most
 * partitions × the limit in the aggregates (a project's events are spread over every partition:
 * dividing the limit by the partitions would cut its common routes, which every partition meets,
 * to a fraction).
 *
 * <p>A window store of one-day windows holds, per (project, day), the admitted routes and their
 * count ({@link DailyNames}); whole days older than the retention are dropped as event time moves on.
 * What it hands on says whether the route was counted as {@code <other>}, for the outcomes.
 */
final class RouteLimit<K extends RoutedKey<K>, V> implements Processor<K, V, K, Limited<V>> {
    static final Duration DAY = Duration.ofDays(1);
    private static final List<LimitedName> COLLAPSED = List.of(LimitedName.ROUTE);

    private final String storeName;
    private final CardinalityLimits limits;
    /**
     * Keys of the series start with a NUL and a word: a route's key starts with its project, its
     * count's with one NUL. Series counted without their environment were kept under two NULs: a
     * store that holds them leaves them to age out with their day, so they take no room in this count.
     */
    private static final String SERIES_PREFIX = KeyText.nul("", "series", "");

    private DailyNames routes;
    private DailyNames series;
    private ProcessorContext<K, Limited<V>> context;

    RouteLimit(String storeName, CardinalityLimits limits) {
        this.storeName = storeName;
        this.limits = limits;
    }

    static StoreBuilder<WindowStore<String, Long>> store(String name, Duration horizon, Duration lateMargin) {
        return Stores.windowStoreBuilder(
                WindowStores.plain(name, retention(horizon, lateMargin), DAY, segmentBasis(horizon)),
                Serdes.String(), Serdes.Long());
    }

    /** A day stays open as long as an event may still land in it: a day, the horizon and the late margin. */
    static Duration retention(Duration horizon, Duration lateMargin) {
        return DAY.plus(horizon).plus(lateMargin);
    }

    /** Sets the segments: from the horizon only, so a changed late margin keeps them (see {@link WindowStores}). */
    static Duration segmentBasis(Duration horizon) {
        return DAY.plus(horizon);
    }

    @Override
    public void init(ProcessorContext<K, Limited<V>> context) {
        this.context = context;
        WindowStore<String, Long> store = context.getStateStore(storeName);
        this.routes = new DailyNames(store, ""); // no prefix: the keys the store always had
        this.series = new DailyNames(store, SERIES_PREFIX);
    }

    @Override
    public void process(Record<K, V> record) {
        K key = record.key();
        String project = key.project();
        long time = record.timestamp();
        int seriesPerDay = limits.seriesPerDay();
        if (routes.admits(project, key.series(), time, limits.routesPerDay())
                && series.admits(project, key.fullSeries(), time, seriesPerDay)) {
            context.forward(record.withValue(Limited.kept(record.value())));
            return;
        }
        K beyond = key.beyondLimit();
        K counted = series.admits(project, beyond.fullSeries(), time, seriesPerDay) ? beyond : key.beyondSeriesLimit();
        limits.collapsed().add(LimitedName.ROUTE);
        context.forward(record.withKey(counted).withValue(new Limited<>(record.value(), COLLAPSED)));
    }
}
