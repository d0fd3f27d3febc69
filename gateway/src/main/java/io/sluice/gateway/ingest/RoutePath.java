package io.sluice.gateway.ingest;

/** The one parser of a request's path into its {@link IngestRoute}. */
final class RoutePath {
    private static final String PREFIX = "/api/v1/";
    private static final String SENTRY_PREFIX = "/api/";
    /** Numeric ids are 48-bit: at most 15 digits. */
    private static final int MAX_ID_DIGITS = 15;

    private RoutePath() {
    }

    /** The route {@code uri}'s path names (its query and a trailing slash cut), or null. */
    static IngestRoute parse(String uri) {
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
                return new IngestRoute.Otlp(rest.substring(0, slash), signal);
            }
        }
        if (slash <= 0 || rest.indexOf('/', slash + 1) >= 0) {
            return null;
        }
        Endpoint endpoint = Endpoint.fromPathSegment(rest.substring(slash + 1));
        return endpoint == null ? null : new IngestRoute.V1(rest.substring(0, slash), endpoint);
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
        if (endpoint == null) {
            return null;
        }
        long projectId = Long.parseLong(rest.substring(0, slash));
        return switch (endpoint) {
            case STORE -> new IngestRoute.SentryStore(projectId);
            case ENVELOPE -> new IngestRoute.SentryEnvelope(projectId);
        };
    }
}
