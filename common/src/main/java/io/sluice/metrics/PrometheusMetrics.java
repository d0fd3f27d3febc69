package io.sluice.metrics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;

import io.sluice.fatal.FatalErrors;

/**
 * One process's metrics: a Micrometer registry exposed in Prometheus formats, with the JVM's and
 * the process's own meters (memory, GC, threads, classes, CPU, uptime, file descriptors) bound
 * from the start. Each gateway or processor has its own (several may share a JVM in tests).
 */
public final class PrometheusMetrics implements AutoCloseable {
    /** How often the Kafka binders look for metrics a client registered since (new partitions, tasks, stores). */
    public static final Duration KAFKA_REFRESH = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(PrometheusMetrics.class);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ExpositionFormats formats = ExpositionFormats.init();
    private final List<AutoCloseable> closeables = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService kafkaRefresh = FatalErrors.singleThreadScheduler("sluice-kafka-metrics");

    public PrometheusMetrics() {
        bind(new ClassLoaderMetrics());
        bind(new JvmMemoryMetrics());
        bind(new JvmGcMetrics());
        bind(new JvmThreadMetrics());
        bind(new JvmInfoMetrics());
        bind(new ProcessorMetrics());
        bind(new UptimeMetrics());
        bind(new FileDescriptorMetrics());
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** Binds meters to this registry; a binder that holds resources is closed with it. */
    public <B extends MeterBinder> B bind(B binder) {
        binder.bindTo(registry);
        if (binder instanceof AutoCloseable closeable) {
            closeables.add(closeable);
        }
        return binder;
    }

    /** The producer's own metrics ({@code kafka_producer_*}); close the result when the producer closes. */
    public KafkaClientMetrics bindKafka(Producer<?, ?> producer) {
        return bind(new KafkaClientMetrics(producer, Tags.empty(), kafkaRefresh, KAFKA_REFRESH));
    }

    /** The consumer's own metrics ({@code kafka_consumer_*}); close the result when the consumer closes. */
    public KafkaClientMetrics bindKafka(Consumer<?, ?> consumer) {
        return bind(new KafkaClientMetrics(consumer, Tags.empty(), kafkaRefresh, KAFKA_REFRESH));
    }

    /** For other Kafka binders (Kafka Streams'): the thread that refreshes their set of meters. */
    public ScheduledExecutorService kafkaRefresh() {
        return kafkaRefresh;
    }

    /**
     * The registry's current state in the format the {@code Accept} header asks for: Prometheus
     * text 0.0.4 without one, OpenMetrics or Prometheus protobuf when a Prometheus server asks.
     */
    public Scrape scrape(String accept) {
        ExpositionFormatWriter writer = formats.findWriter(accept);
        if (!writer.isAvailable()) {
            writer = formats.getPrometheusTextFormatWriter();
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream(16 * 1024);
        try {
            registry.scrape(body, writer.getContentType());
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return new Scrape(body.toByteArray(), writer.getContentType());
    }

    /** Prometheus text format 0.0.4. */
    public String scrapeText() {
        return registry.scrape();
    }

    @Override
    public void close() {
        for (AutoCloseable closeable : closeables) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.debug("closing a metrics binder failed", e);
            }
        }
        kafkaRefresh.shutdownNow();
        registry.close();
    }
}
