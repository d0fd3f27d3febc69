package io.sluice.processor.topology;

import java.util.concurrent.atomic.LongAdder;

/**
 * How many routes a project may bring per day and task before the rest count as
 * {@code <other>} ({@link RouteLimit}), and how many events were counted so.
 */
public record RouteLimits(int routesPerDay, Collapsed collapsed) {
    /**
     * Routes per project, day and raw partition unless configured: as many series as OpenTelemetry's
     * default cardinality limit per metric (2,000), far above the endpoints of a real service once its
     * paths are normalized, far below what random paths would bring (see the README).
     */
    public static final int DEFAULT_ROUTES_PER_DAY = 2_000;

    public RouteLimits {
        if (routesPerDay < 1) {
            throw new IllegalArgumentException("routes per day must be at least 1, got " + routesPerDay);
        }
    }

    public static RouteLimits of(int routesPerDay) {
        return new RouteLimits(routesPerDay, new Collapsed());
    }

    /**
     * Events counted under {@code <other>} because their project had reached its routes of the day.
     * Counted when the event is handed on, so a task that aborts its transaction may count an event
     * again when it reprocesses it (the aggregates count it once).
     */
    public static final class Collapsed {
        private final LongAdder events = new LongAdder();

        void add() {
            events.increment();
        }

        public long count() {
            return events.sum();
        }
    }
}
