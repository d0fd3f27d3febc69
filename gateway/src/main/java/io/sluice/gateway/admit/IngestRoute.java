package io.sluice.gateway.admit;

import io.sluice.outcomes.Outcome;

/** A request's target: which project's which endpoint. Parsed from {@code /api/v1/<token>/<endpoint>}. */
public record IngestRoute(String token, Endpoint endpoint) {
    private static final String PREFIX = "/api/v1/";

    /** The route of a request, or a 404/405 {@link Rejection}. */
    public static IngestRoute of(String method, String uri) {
        int query = uri.indexOf('?');
        String path = query < 0 ? uri : uri.substring(0, query);
        if (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (!path.startsWith(PREFIX)) {
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

    /** The token named in an ingest path, or null: for counting a request that was refused before routing. */
    public static String tokenOf(String uri) {
        try {
            return of("POST", uri).token();
        } catch (Rejection notAnIngestPath) {
            return null;
        }
    }

    private static Rejection notFound() {
        return new Rejection(Outcome.NOT_FOUND,
                "no such endpoint; use POST /api/v1/<project_token>/transaction or /api/v1/<project_token>/project");
    }
}
