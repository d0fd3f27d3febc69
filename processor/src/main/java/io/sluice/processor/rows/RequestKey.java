package io.sluice.processor.rows;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What requests are grouped by, besides the minute or hour. {@code statusCode} 0: the
 * transaction had none (a null would not travel as a key field the same way in every row).
 * {@code release} '' (none) is left out of the key's JSON, the repartition records' and window
 * stores' key: a key without a release is the bytes it was before releases were counted, so the
 * counts stored then are found and added to, and such a key written then reads as release ''.
 */
public record RequestKey(String project, String environment, String op, String route, String method, int statusCode,
                         @JsonInclude(JsonInclude.Include.NON_EMPTY) String release)
        implements RoutedKey<RequestKey> {
    /** No nulls: the columns are plain strings, and equals and hashCode read every field. */
    public RequestKey {
        project = project == null ? "" : project;
        environment = environment == null ? "" : environment;
        op = op == null ? "" : op;
        route = route == null ? "" : route;
        method = method == null ? "" : method;
        release = release == null ? "" : release;
    }

    public static RequestKey of(TransactionFact fact) {
        return new RequestKey(fact.project(), fact.environment(), fact.op(), fact.route(), fact.method(),
                fact.statusCode() == null ? 0 : fact.statusCode(), fact.release());
    }

    @Override
    public RequestKey withRoute(String otherRoute) {
        return new RequestKey(project, environment, op, otherRoute, method, statusCode, release);
    }

    @Override
    public RequestKey withEnvironment(String otherEnvironment) {
        return new RequestKey(project, otherEnvironment, op, route, method, statusCode, release);
    }

    /** The kinds of transaction kept by name beyond the limit; any other op then counts as {@link #OTHER_ROUTE} too. */
    static final java.util.Set<String> KNOWN_OPS = java.util.Set.of(HandledRequests.OP, "pageload", "navigation");

    /**
     * The op is the client's too (Sentry's contexts.trace.op): a (op, route) pair is one route. The
     * op's length first: both may hold a NUL, and two pairs must never read the same.
     */
    @Override
    public String series() {
        return KeyText.sized(op, route);
    }

    /**
     * The route, then method and status code (neither ever holds a NUL, so the text stays unambiguous);
     * a release first, after a NUL and its length: a series without one is the text it was before
     * releases were counted (the series admitted then stay admitted), and no such text starts with a NUL.
     */
    @Override
    public String seriesInEnvironment() {
        String series = KeyText.nul(series(), method, Integer.toString(statusCode));
        return release.isEmpty() ? series : KeyText.nul("", KeyText.sized(release, series));
    }

    /** Beyond the limit, a known op keeps its name (handled requests stay findable), any other becomes {@code <other>}. */
    @Override
    public RequestKey beyondLimit() {
        return new RequestKey(project, environment, KNOWN_OPS.contains(op) ? op : OTHER_ROUTE, OTHER_ROUTE, method, statusCode, release);
    }

    /**
     * Beyond the series limit, its release is {@code <other>} too (one the client named: none stays none),
     * so that only names bounded on their own are left, never a series per release.
     */
    @Override
    public RequestKey beyondSeriesLimit() {
        RequestKey beyond = RoutedKey.super.beyondSeriesLimit();
        return release.isEmpty() ? beyond
                : new RequestKey(project, beyond.environment, beyond.op, beyond.route, method, statusCode, OTHER_ROUTE);
    }

    /*
     * Written out rather than the record's own: the key serde's memo looks each key up several
     * times per record, and the generated methods (method handles) took a quarter of the stream
     * threads' samples in the harness's profile.
     */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof RequestKey that && statusCode == that.statusCode && route.equals(that.route)
                && project.equals(that.project) && environment.equals(that.environment) && op.equals(that.op)
                && method.equals(that.method) && release.equals(that.release);
    }

    @Override
    public int hashCode() {
        int hash = project.hashCode();
        hash = 31 * hash + environment.hashCode();
        hash = 31 * hash + op.hashCode();
        hash = 31 * hash + route.hashCode();
        hash = 31 * hash + method.hashCode();
        hash = 31 * hash + release.hashCode();
        return 31 * hash + statusCode;
    }
}
