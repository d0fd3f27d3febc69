package io.sluice.processor.rows;

/** What errors are grouped by per route, besides the hour. */
public record ErrorRouteKey(String project, String environment, String route, String exceptionType)
        implements RoutedKey<ErrorRouteKey> {
    public static ErrorRouteKey of(ErrorFact fact) {
        return new ErrorRouteKey(fact.project(), fact.environment(), fact.route(), fact.exceptionType());
    }

    /** The route's length first: route and exception type may both hold a NUL. */
    @Override
    public String seriesInEnvironment() {
        return KeyText.sized(route, exceptionType);
    }

    @Override
    public ErrorRouteKey withRoute(String otherRoute) {
        return new ErrorRouteKey(project, environment, otherRoute, exceptionType);
    }

    @Override
    public ErrorRouteKey withEnvironment(String otherEnvironment) {
        return new ErrorRouteKey(project, otherEnvironment, route, exceptionType);
    }
}
