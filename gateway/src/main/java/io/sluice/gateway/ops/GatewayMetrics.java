package io.sluice.gateway.ops;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import io.sluice.metrics.Histogram;
import io.sluice.outcomes.Outcome;

/**
 * The gateway's metrics, exposed in Prometheus text format on the admin port. Labels are
 * bounded sets (endpoint, status, reason): never a project token or a key.
 */
public final class GatewayMetrics {
    private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> rejections = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> bytesIn = new ConcurrentHashMap<>();
    private final Histogram requestDuration = new Histogram(Histogram.LATENCY_BUCKETS);
    private final Histogram produceDuration = new Histogram(Histogram.LATENCY_BUCKETS);
    private final AtomicLong inFlightRequests = new AtomicLong();
    private final AtomicLong inFlightBytes = new AtomicLong();
    private final AtomicLong unauthenticatedInFlightBytes = new AtomicLong();
    private final AtomicLong openConnections = new AtomicLong();
    private volatile LongSupplier registrySkips = () -> 0;
    private volatile LongSupplier outcomeRowsDropped = () -> 0;

    /** One answered request: its endpoint ({@code transaction}, {@code project} or {@code other}) and status. */
    public void answered(String endpoint, int status, long startNanos) {
        requests.computeIfAbsent("endpoint=\"" + endpoint + "\",status=\"" + status + "\"", k -> new LongAdder()).increment();
        requestDuration.recordNanos(System.nanoTime() - startNanos);
    }

    public void rejected(Outcome reason) {
        rejections.computeIfAbsent("reason=\"" + reason.code() + "\"", k -> new LongAdder()).increment();
    }

    public void received(String endpoint, long bytes) {
        bytesIn.computeIfAbsent("endpoint=\"" + endpoint + "\"", k -> new LongAdder()).add(bytes);
    }

    public void produced(long startNanos) {
        produceDuration.recordNanos(System.nanoTime() - startNanos);
    }

    public AtomicLong inFlightRequests() {
        return inFlightRequests;
    }

    public AtomicLong inFlightBytes() {
        return inFlightBytes;
    }

    /** Bytes held by envelopes whose only credential is their dsn header, not yet checked (their own budget). */
    public AtomicLong unauthenticatedInFlightBytes() {
        return unauthenticatedInFlightBytes;
    }

    public AtomicLong openConnections() {
        return openConnections;
    }

    /** Where the count of malformed registry records skipped comes from. */
    public void countRegistrySkips(LongSupplier skipped) {
        this.registrySkips = skipped;
    }

    /** Where the count of outcome rows dropped before Kafka acknowledged them comes from. */
    public void countOutcomeRowsDropped(LongSupplier dropped) {
        this.outcomeRowsDropped = dropped;
    }

    public String prometheusText() {
        StringBuilder out = new StringBuilder(4096);
        counters(out, "sluice_gateway_requests_total", "Answered requests by endpoint and HTTP status.", requests);
        counters(out, "sluice_gateway_rejections_total", "Refused requests by reason (the error code).", rejections);
        counters(out, "sluice_gateway_received_bytes_total", "Request body bytes as sent, by endpoint.", bytesIn);
        requestDuration.writeTo(out, "sluice_gateway_request_duration_seconds", "Time from full request to answer.");
        produceDuration.writeTo(out, "sluice_gateway_kafka_produce_duration_seconds", "Time from send to Kafka's acknowledgement.");
        gauge(out, "sluice_gateway_in_flight_requests", "Requests waiting for Kafka.", inFlightRequests.get());
        gauge(out, "sluice_gateway_in_flight_bytes", "Bytes of requests admitted and not yet answered.", inFlightBytes.get());
        gauge(out, "sluice_gateway_unauthenticated_in_flight_bytes",
                "Bytes of envelopes held before their dsn header is checked (a budget of their own).",
                unauthenticatedInFlightBytes.get());
        gauge(out, "sluice_gateway_open_connections", "Open client connections.", openConnections.get());
        out.append("# HELP sluice_gateway_registry_skipped_records_total Malformed project registry records skipped.\n")
                .append("# TYPE sluice_gateway_registry_skipped_records_total counter\n")
                .append("sluice_gateway_registry_skipped_records_total ").append(registrySkips.getAsLong()).append('\n');
        out.append("# HELP sluice_gateway_outcome_rows_dropped_total Outcome count rows dropped unpublished (Kafka down too long).\n")
                .append("# TYPE sluice_gateway_outcome_rows_dropped_total counter\n")
                .append("sluice_gateway_outcome_rows_dropped_total ").append(outcomeRowsDropped.getAsLong()).append('\n');
        return out.toString();
    }

    private static void counters(StringBuilder out, String name, String help, Map<String, LongAdder> series) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" counter\n");
        new TreeMap<>(series).forEach((labels, count) ->
                out.append(name).append('{').append(labels).append("} ").append(count.sum()).append('\n'));
    }

    private static void gauge(StringBuilder out, String name, String help, long value) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" gauge\n");
        out.append(name).append(' ').append(value).append('\n');
    }
}
