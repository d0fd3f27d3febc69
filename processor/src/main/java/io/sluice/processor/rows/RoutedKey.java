package io.sluice.processor.rows;

/** A grouping key with a route, which the per-project route limit may replace by {@link #OTHER_ROUTE}. */
public interface RoutedKey<K extends RoutedKey<K>> {
    /** The route every route beyond a project's limit of the day is counted under. */
    String OTHER_ROUTE = "<other>";

    String project();

    String route();

    /** This key with another route. */
    K withRoute(String otherRoute);
}
