package io.sluice.processor.rows;

/** A grouping key with a route, which the per-project route limit may replace by {@link #OTHER_ROUTE}. */
public interface RoutedKey<K extends RoutedKey<K>> {
    /** The route every route beyond a project's limit of the day is counted under. */
    String OTHER_ROUTE = "<other>";

    String project();

    String route();

    /** This key with another route. */
    K withRoute(String otherRoute);

    /**
     * What the route limit counts as one route of the project: the route, and for requests the kind
     * ({@code op}) with it, since both come from the client.
     */
    default String series() {
        return route();
    }

    /** The environment, already bounded on its own: the series limit counts it in each series, and may replace it. */
    String environment();

    /** This key in another environment. */
    K withEnvironment(String otherEnvironment);

    /**
     * What the series limit counts as one series of the project: every grouping field of the
     * aggregate's key but the time, so that no mix of environments and other names makes more
     * series than the limit. The environment's length first: it and the rest may hold a NUL, and
     * no two keys may give the same text.
     */
    default String fullSeries() {
        return fullSeries(environment(), seriesInEnvironment());
    }

    /** A series' text: the environment's length, the environment, then the rest of the key (see {@link #fullSeries()}). */
    static String fullSeries(String environment, String seriesInEnvironment) {
        return KeyText.sized(environment, seriesInEnvironment);
    }

    /**
     * Every grouping field of the key but the project, the environment and the time, written so
     * that no two keys give the same text whatever NULs the client's names hold.
     */
    String seriesInEnvironment();

    /** This key counted beyond the limit: under {@link #OTHER_ROUTE}. */
    default K beyondLimit() {
        return withRoute(OTHER_ROUTE);
    }

    /**
     * This key counted beyond the series limit when its {@link #beyondLimit} series finds no room
     * either: in environment {@link #OTHER_ROUTE} too, so that only names bounded on their own are left.
     */
    default K beyondSeriesLimit() {
        return beyondLimit().withEnvironment(OTHER_ROUTE);
    }
}
