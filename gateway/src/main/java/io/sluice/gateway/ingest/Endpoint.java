package io.sluice.gateway.ingest;

/** The two ingest endpoints, by the last path segment that names them. */
public enum Endpoint {
    /** {@code /api/v1/<token>/transaction}: one handled HTTP request. */
    TRANSACTION("transaction"),
    /** {@code /api/v1/<token>/project}: an error or exception report. */
    ERROR_REPORT("project");

    private final String pathSegment;

    Endpoint(String pathSegment) {
        this.pathSegment = pathSegment;
    }

    public String pathSegment() {
        return pathSegment;
    }

    public static Endpoint fromPathSegment(String segment) {
        for (Endpoint endpoint : values()) {
            if (endpoint.pathSegment.equals(segment)) {
                return endpoint;
            }
        }
        return null;
    }
}
