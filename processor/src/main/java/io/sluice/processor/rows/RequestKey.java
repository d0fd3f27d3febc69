package io.sluice.processor.rows;

/**
 * What requests are grouped by, besides the minute or hour. {@code statusCode} 0: the
 * transaction had none (a null would not travel as a key field the same way in every row).
 */
public record RequestKey(String project, String environment, String op, String route, String method, int statusCode)
        implements RoutedKey<RequestKey> {
    public static RequestKey of(TransactionFact fact) {
        return new RequestKey(fact.project(), fact.environment(), fact.op(), fact.route(),
                fact.method() == null ? "" : fact.method(), fact.statusCode() == null ? 0 : fact.statusCode());
    }

    @Override
    public RequestKey withRoute(String otherRoute) {
        return new RequestKey(project, environment, op, otherRoute, method, statusCode);
    }
}
