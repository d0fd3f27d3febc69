package io.sluice.gateway.ingest;

/** The Sentry SDK endpoints, {@code /api/<numeric project id>/<name>/}. */
public enum SentryEndpoint {
    /** A Sentry envelope: a header line, then items (events, transactions, client reports, ...). */
    ENVELOPE("envelope"),
    /** One event JSON, an error, or a transaction when its {@code type} is {@code transaction}. */
    STORE("store");

    private final String pathSegment;

    SentryEndpoint(String pathSegment) {
        this.pathSegment = pathSegment;
    }

    public String pathSegment() {
        return pathSegment;
    }

    static SentryEndpoint fromPathSegment(String segment) {
        for (SentryEndpoint endpoint : values()) {
            if (endpoint.pathSegment.equals(segment)) {
                return endpoint;
            }
        }
        return null;
    }
}
