package io.sluice.gateway.ingest;

import io.sluice.outcomes.Outcome;

/**
 * A request's target. Either the Sluice API, {@code /api/v1/<token>/<endpoint>} ({@code token}
 * and {@code endpoint} set), or its OTLP/HTTP traces, logs or metrics, {@code /api/v1/<token>/otlp/v1/traces}
 * ({@code token} and the {@code otlp} signal set), or a Sentry SDK endpoint, {@code /api/<numeric id>/envelope/} or
 * {@code /store/} ({@code sentry} and {@code projectId} set; the token is known once the DSN key
 * is checked). {@code preflight}: a browser's CORS {@code OPTIONS} on a Sentry endpoint.
 */
public record IngestRoute(String token, Endpoint endpoint, SentryEndpoint sentry, long projectId, boolean preflight,
                          OtlpSignal otlp) {
    private static final String PREFIX = "/api/v1/";
    private static final String SENTRY_PREFIX = "/api/";
    /** Numeric ids are 48-bit: at most 15 digits. */
    private static final int MAX_ID_DIGITS = 15;

    public IngestRoute(String token, Endpoint endpoint) {
        this(token, endpoint, null, 0, false, null);
    }

    public IngestRoute(String token, Endpoint endpoint, SentryEndpoint sentry, long projectId, boolean preflight) {
        this(token, endpoint, sentry, projectId, preflight, null);
    }

    /** The OTLP/HTTP traces endpoint of a project. */
    public static IngestRoute otlpTraces(String token) {
        return otlp(token, OtlpSignal.TRACES);
    }

    /** A project's OTLP/HTTP endpoint of {@code signal}. */
    public static IngestRoute otlp(String token, OtlpSignal signal) {
        return new IngestRoute(token, null, null, 0, false, signal);
    }

    public boolean isSentry() {
        return sentry != null;
    }

    public boolean isOtlp() {
        return otlp != null;
    }

    /**
     * The endpoint's name in metrics and in answers: {@code transaction}, {@code project}, {@code otlp_traces},
     * {@code otlp_logs}, {@code otlp_metrics}, {@code envelope}, {@code store}.
     */
    public String name() {
        if (otlp != null) {
            return otlp.endpointName();
        }
        return sentry != null ? sentry.pathSegment() : endpoint.pathSegment();
    }

    /** The route of a request, or a 404/405 {@link Rejection}. */
    public static IngestRoute of(String method, String uri) {
        IngestRoute route = ofPath(uri);
        if (route == null) {
            throw notFound();
        }
        return route.forMethod(method);
    }

    /**
     * The route a request's path names, whatever its method (a refused request is still counted and
     * answered as its route's), or null when it names none. Parsed once per request, from its head.
     */
    public static IngestRoute ofPath(String uri) {
        int query = uri.indexOf('?');
        String path = query < 0 ? uri : uri.substring(0, query);
        if (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (!path.startsWith(PREFIX)) {
            return sentryRoute(path);
        }
        String rest = path.substring(PREFIX.length());
        int slash = rest.indexOf('/');
        for (OtlpSignal signal : OtlpSignal.values()) {
            if (slash > 0 && rest.startsWith(signal.path(), slash + 1) && rest.length() == slash + 1 + signal.path().length()) {
                return otlp(rest.substring(0, slash), signal);
            }
        }
        if (slash <= 0 || rest.indexOf('/', slash + 1) >= 0) {
            return null;
        }
        Endpoint endpoint = Endpoint.fromPathSegment(rest.substring(slash + 1));
        return endpoint == null ? null : new IngestRoute(rest.substring(0, slash), endpoint);
    }

    /** This route as requested with {@code method}: a preflight (a Sentry route's OPTIONS), itself (POST), or a 405. */
    public IngestRoute forMethod(String method) {
        if ("POST".equals(method)) {
            return this;
        }
        if (isSentry() && "OPTIONS".equals(method)) {
            return new IngestRoute(token, endpoint, sentry, projectId, true);
        }
        throw new Rejection(Outcome.METHOD_NOT_ALLOWED, method + " is not allowed here; send the "
                + (isSentry() ? "envelope" : isOtlp() ? "export" : "event") + " with POST");
    }

    /** {@code /api/<digits>/envelope} or {@code /store} (trailing slash already cut), or null. */
    private static IngestRoute sentryRoute(String path) {
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
        return endpoint == null ? null : new IngestRoute(null, null, endpoint, Long.parseLong(rest.substring(0, slash)), false);
    }

    /** The 404 of a path that names no route. */
    public static Rejection notFound() {
        return new Rejection(Outcome.NOT_FOUND, "no such endpoint; use POST /api/v1/<project_token>/transaction or "
                + "/api/v1/<project_token>/project, an OpenTelemetry exporter with /api/v1/<project_token>/otlp as its "
                + "endpoint, or a Sentry SDK with this project's DSN");
    }
}
