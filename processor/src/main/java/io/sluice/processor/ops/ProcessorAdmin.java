package io.sluice.processor.ops;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import org.apache.kafka.streams.KafkaStreams;

import io.sluice.admin.AdminChecks;
import io.sluice.admin.AdminServer;
import io.sluice.admin.Health;
import io.sluice.admin.Readiness;
import io.sluice.metrics.PrometheusMetrics;
import io.sluice.sink.SinkMetrics;

/**
 * What the processor's admin port says, beside its Streams state: healthy while the streams are
 * alive and the sink runs; ready while the streams are RUNNING (partitions assigned, state
 * restored), a Kafka broker answered lately (see {@link KafkaContact}), the sink is not stalled and
 * stream threads do not fail again and again (see {@link StreamThreadFailures}).
 */
public final class ProcessorAdmin implements AdminChecks {
    private static final String STREAMS = "streams";

    private final KafkaStreams streams;
    private final SinkMetrics sink;
    private final BooleanSupplier sinkAlive;
    private final StreamThreadFailures threadFailures;
    private final KafkaContact kafkaContact;

    ProcessorAdmin(KafkaStreams streams, SinkMetrics sink, BooleanSupplier sinkAlive, StreamThreadFailures threadFailures,
                   KafkaContact kafkaContact) {
        this.streams = streams;
        this.sink = sink;
        this.sinkAlive = sinkAlive;
        this.threadFailures = threadFailures;
        this.kafkaContact = kafkaContact;
    }

    /** The processor's admin port, {@code /healthz}, {@code /readyz} and {@code /metrics} (see {@link AdminServer}). */
    public static AdminServer start(String host, int port, KafkaStreams streams, PrometheusMetrics metrics, SinkMetrics sink,
                                    BooleanSupplier sinkAlive, StreamThreadFailures threadFailures, KafkaContact kafkaContact)
            throws IOException {
        return AdminServer.start(host, port, "sluice-processor-admin",
                new ProcessorAdmin(streams, sink, sinkAlive, threadFailures, kafkaContact), metrics::scrape);
    }

    @Override
    public Health health() {
        KafkaStreams.State state = streams.state();
        boolean alive = state != KafkaStreams.State.ERROR && state != KafkaStreams.State.NOT_RUNNING && sinkAlive.getAsBoolean();
        return new Health(alive, Map.of(STREAMS, state.name()));
    }

    @Override
    public Readiness readiness() {
        KafkaStreams.State state = streams.state();
        List<String> reasons = new ArrayList<>();
        if (state != KafkaStreams.State.RUNNING) {
            reasons.add("Kafka Streams is " + state + ", not RUNNING");
        }
        // Streams stays RUNNING while no broker answers.
        kafkaContact.unreachable().ifPresent(reasons::add);
        sink.stalled().ifPresent(reasons::add);
        // Streams may be RUNNING between the failures of a task that fails on every new thread.
        threadFailures.unhealthy().ifPresent(reasons::add);
        return new Readiness(reasons, List.of(), Map.of(STREAMS, state.name()));
    }
}
