package io.sluice.processor.ops;

import org.apache.kafka.streams.KafkaStreams;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.sluice.events.FieldsHeader.Unread;
import io.sluice.metrics.LastMeasurement;
import io.sluice.metrics.PrometheusMetrics;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.parse.RecordsReadFromJson.Kind;
import io.sluice.processor.topology.DeadLetterCounts;
import io.sluice.processor.topology.CardinalityLimits;
import io.sluice.processor.topology.PreAggregation;
import io.sluice.processor.topology.LimitedName;

/**
 * The processor's meters: its own ({@code sluice_processor_*}) and Kafka Streams' with those of
 * Streams' consumers and producers ({@code kafka_stream_*}, {@code kafka_consumer_*},
 * {@code kafka_producer_*}), RocksDB's among them ({@code kafka_stream_state_*}: at Streams'
 * default recording level INFO, the stores' properties such as estimated keys, memtable and
 * block-cache sizes; RocksDB's statistics need level DEBUG).
 */
public final class ProcessorMeters {
    private ProcessorMeters() {
    }

    /** @param inputLag what {@link InputLag} last measured */
    public static void bind(PrometheusMetrics prometheus, KafkaStreams streams, LastMeasurement inputLag, DeadLetterCounts deadLetters,
                            RecordsReadFromJson readFromJson, StreamThreadFailures threadFailures) {
        MeterRegistry registry = prometheus.registry();
        Gauge.builder("sluice.processor.streams.running", streams, s -> s.state() == KafkaStreams.State.RUNNING ? 1 : 0)
                .description("1 while Kafka Streams is RUNNING.").register(registry);
        Gauge.builder("sluice.processor.input.lag.records", inputLag, LastMeasurement::value)
                .description("Raw records waiting for this instance: over the raw topics' partitions its stream threads own, "
                        + "the sum of end offset minus committed offset, as last measured: see sluice_processor_input_lag_age_seconds.")
                .register(registry);
        Gauge.builder("sluice.processor.input.lag.age.seconds", inputLag, LastMeasurement::ageSeconds)
                .description("Seconds since sluice_processor_input_lag_records was last measured (each second while Kafka answers); "
                        + "above a few seconds the lag is unknown, not current.").register(registry);
        String deadLettersHelp = "Input records the processor sent to the dead-letter topic, by reason.";
        FunctionCounter.builder("sluice.processor.dead.letters", deadLetters, DeadLetterCounts::unparseableCount)
                .description(deadLettersHelp).tag("reason", "unparseable").register(registry);
        FunctionCounter.builder("sluice.processor.dead.letters", deadLetters, DeadLetterCounts::unproducibleCount)
                .description(deadLettersHelp).tag("reason", "unproducible").register(registry);
        String readFromJsonHelp = "Input records whose fields the processor read from their JSON, not from the gateway's "
                + "sluice.fields header, by kind and reason: no_header (a gateway older than the header, or fields too large for it), "
                + "other_version (a gateway of another version: a rolling upgrade under way), unreadable (a header this version "
                + "could not read).";
        for (Kind kind : Kind.values()) {
            for (Unread why : Unread.values()) {
                FunctionCounter.builder("sluice.processor.records.read.from.json", readFromJson, counts -> counts.count(kind, why))
                        .description(readFromJsonHelp).tags("kind", kind.tag(), "reason", why.tag()).register(registry);
            }
        }
        FunctionCounter.builder("sluice.processor.dropped.records", streams, s -> StreamsDrops.total(s.metrics()))
                .description("Records Kafka Streams dropped: events too late for their minute (beyond horizon + late margin), "
                        + "once per aggregate that missed them, and unproducible dead letters.").register(registry);
        FunctionCounter.builder("sluice.processor.stream.thread.failures", threadFailures, StreamThreadFailures::total)
                .description("Stream threads that failed and were replaced; a task failing on each new thread makes /readyz 503.")
                .register(registry);
        prometheus.bind(new KafkaStreamsMetrics(streams, Tags.empty(), prometheus.kafkaRefresh(), PrometheusMetrics.KAFKA_REFRESH));
    }

    /**
     * What the raw tasks added up before the repartition ({@link PreAggregation}): transactions in,
     * sums out. Their ratio is how much the sums save; tasks with transactions are the tasks counting.
     */
    public static void bindPreAggregation(PrometheusMetrics prometheus, PreAggregation preAggregation) {
        FunctionCounter.builder("sluice.processor.preaggregated.transactions", preAggregation,
                        p -> p.eventsByTask().values().stream().mapToLong(Long::longValue).sum())
                .description("Transactions the raw tasks added up per route and minute before the repartition (again after an "
                        + "aborted transaction: a rate, not an exact count).")
                .register(prometheus.registry());
        FunctionCounter.builder("sluice.processor.preaggregated.sums", preAggregation, PreAggregation::sumsSent)
                .description("Partial sums the raw tasks sent through the requests-by-route repartition topic in their place.")
                .register(prometheus.registry());
    }

    /** What the per-project limits counted as {@code <other>} (the outcomes count the same, per project and minute). */
    public static void bindCardinalityLimits(PrometheusMetrics prometheus, CardinalityLimits limits) {
        CardinalityLimits.Collapsed collapsed = limits.collapsed();
        FunctionCounter.builder("sluice.processor.routes.collapsed", collapsed, c -> c.count(LimitedName.ROUTE))
                .description("Transactions and errors counted under the route <other> in requests_1m, requests_1h and errors_1h: "
                        + "their project had brought SLUICE_PROCESSOR_ROUTES_PER_DAY routes (or ten times as many series) that day "
                        + "in their partition already.")
                .register(prometheus.registry());
        FunctionCounter.builder("sluice.processor.environments.collapsed", collapsed, c -> c.count(LimitedName.ENVIRONMENT))
                .description("Transactions and errors counted under the environment <other> in the aggregates: their project had "
                        + "brought SLUICE_PROCESSOR_ENVIRONMENTS_PER_DAY environments that day in their partition already.")
                .register(prometheus.registry());
        FunctionCounter.builder("sluice.processor.exception.types.collapsed", collapsed, c -> c.count(LimitedName.EXCEPTION_TYPE))
                .description("Errors counted under the exception type <other> in errors_1m and errors_1h: their project had "
                        + "brought SLUICE_PROCESSOR_EXCEPTION_TYPES_PER_DAY exception types (or ten times SLUICE_PROCESSOR_ROUTES_PER_DAY "
                        + "series of environment and exception type) that day in their partition already.")
                .register(prometheus.registry());
        FunctionCounter.builder("sluice.processor.releases.collapsed", collapsed, c -> c.count(LimitedName.RELEASE))
                .description("Transactions counted under the release <other> in requests_1m and requests_1h: their project had "
                        + "brought SLUICE_PROCESSOR_RELEASES_PER_DAY releases that day in their partition already.")
                .register(prometheus.registry());
    }
}
