package io.sluice.processor.topology;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many routes, environments, exception types and releases a project may bring per event-time day and
 * raw partition before the rest count as {@code <other>} in the aggregates ({@link RouteLimit},
 * {@link FactLimit}), and how many events were counted so. Each bound keeps one tenant's random
 * names from growing the aggregates' series (and so every panel's cost) without end; the history
 * keeps every name as sent.
 */
public record CardinalityLimits(int routesPerDay, int environmentsPerDay, int exceptionTypesPerDay, int releasesPerDay,
                                Collapsed collapsed) {
    /**
     * Routes per project, day and raw partition unless configured: as many series as OpenTelemetry's
     * default cardinality limit per metric (2,000), far above the endpoints of a real service once its
     * paths are normalized, far below what random paths would bring (see docs/data-model.md).
     */
    public static final int DEFAULT_ROUTES_PER_DAY = 2_000;
    /**
     * Environments per project, day and raw partition unless configured: a service has a handful
     * (production, staging, development) and preview deployments add some per branch; an SDK that
     * puts a host name or a build id in the environment would add one series per host or build.
     */
    public static final int DEFAULT_ENVIRONMENTS_PER_DAY = 100;
    /**
     * Exception types per project, day and raw partition unless configured: a service raises tens to
     * a few hundred distinct types; generated ones (a type per anonymous class or per message) do not end.
     */
    public static final int DEFAULT_EXCEPTION_TYPES_PER_DAY = 1_000;
    /**
     * Releases per project, day and raw partition unless configured: a service deploys a few times a
     * day and a mobile app has tens of versions in use at once; an SDK that puts a build id or a
     * timestamp in the release would add one series per build.
     */
    public static final int DEFAULT_RELEASES_PER_DAY = 100;

    /**
     * Series (a whole key of an aggregate but its project and time: environment, route with op, method,
     * status code and release, or with exception type; for errors_1m, environment and exception type) a
     * project may bring per day and raw partition, per route it may bring, in each of these aggregates:
     * a route answers with a few methods and status codes in a few environments, far fewer on average
     * than this; without a bound, one route sent with every status code in every environment would
     * make a row per event.
     */
    public static final int SERIES_PER_ROUTE = 10;

    public CardinalityLimits {
        atLeastOne("routes", routesPerDay);
        atLeastOne("environments", environmentsPerDay);
        atLeastOne("exception types", exceptionTypesPerDay);
        atLeastOne("releases", releasesPerDay);
    }

    /** The default limit of releases. */
    public static CardinalityLimits of(int routesPerDay, int environmentsPerDay, int exceptionTypesPerDay) {
        return of(routesPerDay, environmentsPerDay, exceptionTypesPerDay, DEFAULT_RELEASES_PER_DAY);
    }

    public static CardinalityLimits of(int routesPerDay, int environmentsPerDay, int exceptionTypesPerDay, int releasesPerDay) {
        return new CardinalityLimits(routesPerDay, environmentsPerDay, exceptionTypesPerDay, releasesPerDay, new Collapsed());
    }

    /** The default limits of environments and exception types, this many routes. */
    public static CardinalityLimits ofRoutes(int routesPerDay) {
        return of(routesPerDay, DEFAULT_ENVIRONMENTS_PER_DAY, DEFAULT_EXCEPTION_TYPES_PER_DAY);
    }

    public static CardinalityLimits defaults() {
        return ofRoutes(DEFAULT_ROUTES_PER_DAY);
    }

    /** Series per project, day and raw partition: {@link #SERIES_PER_ROUTE} for each route allowed. */
    public int seriesPerDay() {
        return (int) Math.min(Integer.MAX_VALUE, (long) routesPerDay * SERIES_PER_ROUTE);
    }

    int perDay(LimitedName name) {
        return switch (name) {
            case ROUTE -> routesPerDay;
            case ENVIRONMENT -> environmentsPerDay;
            case EXCEPTION_TYPE -> exceptionTypesPerDay;
            case RELEASE -> releasesPerDay;
        };
    }

    private static void atLeastOne(String what, int perDay) {
        if (perDay < 1) {
            throw new IllegalArgumentException(what + " per day must be at least 1, got " + perDay);
        }
    }

    /**
     * Events counted under {@code <other>} for each name because their project had reached its limit
     * of the day. Counted when the event is handed on, so a task that aborts its transaction may count
     * an event again when it reprocesses it (the aggregates and the outcomes count it once).
     */
    public static final class Collapsed {
        private final Map<LimitedName, LongAdder> events = new EnumMap<>(LimitedName.class);

        Collapsed() {
            for (LimitedName name : LimitedName.values()) {
                events.put(name, new LongAdder());
            }
        }

        void add(LimitedName name) {
            events.get(name).increment();
        }

        public long count(LimitedName name) {
            return events.get(name).sum();
        }
    }
}
