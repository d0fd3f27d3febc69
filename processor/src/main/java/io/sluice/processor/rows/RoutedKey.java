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

    /**
     * What the series limit counts as one series of the project: every grouping field of the
     * aggregate's key but the environment (limited on its own) and the time, written so that no two
     * keys give the same text whatever NULs the client's names hold.
     */
    String fullSeries();

    /** This key counted beyond the limit: under {@link #OTHER_ROUTE}. */
    default K beyondLimit() {
        return withRoute(OTHER_ROUTE);
    }
}
