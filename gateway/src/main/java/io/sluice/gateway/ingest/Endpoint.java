package io.sluice.gateway.ingest;

/**
 * What an event is, by the name its quota has ({@code projects set-quota --endpoint}); the v1
 * endpoints by the last path segment that names them.
 */
public enum Endpoint {
    /** {@code /api/v1/<token>/transaction}: one handled HTTP request. */
    TRANSACTION("transaction", true),
    /** {@code /api/v1/<token>/project}: an error or exception report. */
    ERROR_REPORT("project", true),
    /** A Sentry envelope's {@code session} or {@code sessions} item (release health); no v1 path. */
    SESSION("session", false);

    private final String pathSegment;
    private final boolean v1Path;

    Endpoint(String pathSegment, boolean v1Path) {
        this.pathSegment = pathSegment;
        this.v1Path = v1Path;
    }

    public String pathSegment() {
        return pathSegment;
    }

    /** The endpoint whose quota has this name ({@code projects set-quota --endpoint}), or null. */
    public static Endpoint ofQuotaName(String name) {
        for (Endpoint endpoint : values()) {
            if (endpoint.pathSegment.equals(name)) {
                return endpoint;
            }
        }
        return null;
    }

    /** Every quota's name, in declaration order. */
    public static java.util.List<String> quotaNames() {
        return java.util.Arrays.stream(values()).map(Endpoint::pathSegment).toList();
    }

    public static Endpoint fromPathSegment(String segment) {
        for (Endpoint endpoint : values()) {
            if (endpoint.v1Path && endpoint.pathSegment.equals(segment)) {
                return endpoint;
            }
        }
        return null;
    }
}
