package io.sluice.gateway.admit;

import io.sluice.outcomes.Outcome;

/**
 * A request's target. Either the Sluice API, {@code /api/v1/<token>/<endpoint>} ({@code token}
 * and {@code endpoint} set), or a Sentry SDK endpoint, {@code /api/<numeric id>/envelope/} or
 * {@code /store/} ({@code sentry} and {@code projectId} set; the token is known once the DSN key
 * is checked). {@code preflight}: a browser's CORS {@code OPTIONS} on a Sentry endpoint.
 */
public record IngestRoute(String token, Endpoint endpoint, SentryEndpoint sentry, long projectId, boolean preflight) {
    private static final String PREFIX = "/api/v1/";
    private static final String SENTRY_PREFIX = "/api/";
    /** Numeric ids are 48-bit: at most 15 digits. */
    private static final int MAX_ID_DIGITS = 15;

    public IngestRoute(String token, Endpoint endpoint) {
        this(token, endpoint, null, 0, false);
    }

    public boolean isSentry() {
        return sentry != null;
    }

    /** The endpoint's name in metrics and in answers: {@code transaction}, {@code project}, {@code envelope}, {@code store}. */
    public String name() {
        return sentry != null ? sentry.pathSegment() : endpoint.pathSegment();
    }

    /** The route of a request, or a 404/405 {@link Rejection}. */
    public static IngestRoute of(String method, String uri) {
        int query = uri.indexOf('?');
        String path = query < 0 ? uri : uri.substring(0, query);
        if (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (!path.startsWith(PREFIX)) {
            IngestRoute sentry = sentryRoute(method, path);
            if (sentry != null) {
                return sentry;
            }
            throw notFound();
        }
        String rest = path.substring(PREFIX.length());
        int slash = rest.indexOf('/');
        if (slash <= 0 || rest.indexOf('/', slash + 1) >= 0) {
            throw notFound();
        }
        Endpoint endpoint = Endpoint.fromPathSegment(rest.substring(slash + 1));
        if (endpoint == null) {
            throw notFound();
        }
        if (!"POST".equals(method)) {
            throw new Rejection(Outcome.METHOD_NOT_ALLOWED, method + " is not allowed here; send the event with POST");
        }
        return new IngestRoute(rest.substring(0, slash), endpoint);
    }

    /** {@code /api/<digits>/envelope} or {@code /store} (trailing slash already cut), or null. */
    private static IngestRoute sentryRoute(String method, String path) {
        if (!path.startsWith(SENTRY_PREFIX)) {
            return null;
        }
        String rest = path.substring(SENTRY_PREFIX.length());
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash > MAX_ID_DIGITS || rest.indexOf('/', slash + 1) >= 0) {
            return null;
        }
        for (int i = 0; i < slash; i++) {
            if (rest.charAt(i) < '0' || rest.charAt(i) > '9') {
                return null;
            }
        }
        SentryEndpoint endpoint = SentryEndpoint.fromPathSegment(rest.substring(slash + 1));
        if (endpoint == null) {
            return null;
        }
        boolean preflight = "OPTIONS".equals(method);
        if (!preflight && !"POST".equals(method)) {
            throw new Rejection(Outcome.METHOD_NOT_ALLOWED, method + " is not allowed here; send the envelope with POST");
        }
        return new IngestRoute(null, null, endpoint, Long.parseLong(rest.substring(0, slash)), preflight);
    }

    /** Whether the path is a Sentry endpoint's (its answers carry CORS headers), whatever the method. */
    public static boolean isSentryPath(String uri) {
        try {
            return of("POST", uri).isSentry();
        } catch (Rejection notAnIngestPath) {
            return false;
        }
    }

    /** The token named in an ingest path, or null: for counting a request that was refused before routing. */
    public static String tokenOf(String uri) {
        try {
            return of("POST", uri).token();
        } catch (Rejection notAnIngestPath) {
            return null;
        }
    }

    private static Rejection notFound() {
        return new Rejection(Outcome.NOT_FOUND, "no such endpoint; use POST /api/v1/<project_token>/transaction or "
                + "/api/v1/<project_token>/project, or a Sentry SDK with this project's DSN");
    }
}
