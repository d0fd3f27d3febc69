package io.sluice.gateway.ingest;

/**
 * The OTLP/HTTP signals a project takes, by the path an OpenTelemetry SDK appends to
 * {@code OTEL_EXPORTER_OTLP_ENDPOINT} ({@code …/api/v1/<token>/otlp}): {@code v1/traces},
 * {@code v1/logs}, {@code v1/metrics}.
 */
public enum OtlpSignal {
    TRACES("traces", Door.OTLP_TRACES),
    LOGS("logs", Door.OTLP_LOGS),
    METRICS("metrics", Door.OTLP_METRICS);

    private final String path;
    private final Door door;

    OtlpSignal(String signal, Door door) {
        this.path = "otlp/v1/" + signal;
        this.door = door;
    }

    /** The door an export of this signal comes in by. */
    Door door() {
        return door;
    }

    /** The path after the token: {@code otlp/v1/traces}. */
    String path() {
        return path;
    }

    /** The signal's endpoint's name in metrics and in answers: {@code otlp_traces}. */
    String endpointName() {
        return "otlp_" + name().toLowerCase(java.util.Locale.ROOT);
    }
}
