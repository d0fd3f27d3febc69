package io.sluice.gateway.publish;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Topics;
import io.sluice.events.EventHeaders;
import io.sluice.events.FieldsHeader;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.validate.AcceptedEvent;
import io.sluice.kafka.KafkaClients;
import io.sluice.kafka.TopicSetup;

/**
 * Publishes accepted events to the raw topics, durably: the future completes only when every
 * in-sync replica has the record ({@code acks=all}, idempotent producer), and fails when Kafka
 * does not acknowledge within the publish timeout or the send itself fails.
 *
 * <p>Two producers share the work. While fewer than {@code expressBelow} publishes await their
 * acknowledgement, an event goes out at once through the express producer (no linger): a lone
 * request is answered without waiting for company. Beyond that, events go through the lingering
 * producer and share its batches: under load the broker handles fewer, larger requests, and a
 * few milliseconds more per answer are small beside the queueing.
 */
public final class EventPublisher implements AutoCloseable {
    public static final String GATEWAY_VERSION = EventPublisher.class.getPackage().getImplementationVersion() == null
            ? "dev" : EventPublisher.class.getPackage().getImplementationVersion();

    private final Producer<byte[], byte[]> producer;
    private final Producer<byte[], byte[]> express;
    private final int expressBelow;
    /** Publishes sent and not yet settled, from every event loop: few of them means an idle gateway. */
    private final AtomicInteger awaiting = new AtomicInteger();
    private final Topics topics;
    private final PartitionChooser partitions;
    private final PublishHealth health;
    private final java.util.Map<String, Integer> partitionCounts = new java.util.concurrent.ConcurrentHashMap<>();

    /** One producer for every event, lingering as it is configured to. */
    public EventPublisher(Producer<byte[], byte[]> producer, Topics topics, PartitionChooser partitions, PublishHealth health) {
        this(producer, producer, 0, topics, partitions, health);
    }

    /**
     * @param lingering    sends the events published while {@code expressBelow} or more await acknowledgement
     * @param express      sends the others, without lingering
     * @param expressBelow 0 sends every event through {@code lingering}
     * @param health       told of every publish's result (readiness reads it)
     */
    public EventPublisher(Producer<byte[], byte[]> lingering, Producer<byte[], byte[]> express, int expressBelow, Topics topics,
                          PartitionChooser partitions, PublishHealth health) {
        this.producer = lingering;
        this.express = express;
        this.expressBelow = expressBelow;
        this.topics = topics;
        this.partitions = partitions;
        this.health = health;
    }

    /** Largest batch.size an operator may give the gateway's producer (its buffer holds a few per partition). */
    static final long MAX_BATCH_BYTES = 1024 * 1024;

    /** Room for an event's key, headers and the record batch's own bytes, beyond its JSON. */
    static final int RECORD_OVERHEAD_BYTES = 64 * 1024;

    public static Producer<byte[], byte[]> durableProducer(KafkaSettings kafka, Duration publishTimeout) {
        return durableProducer(kafka, CLIENT_ID, publishTimeout, Duration.ofMillis(1), 1024 * 1024, 64L * 1024 * 1024);
    }

    /** The lingering producer's client id (its metrics' {@code client_id}); the express one's adds {@link #EXPRESS}. */
    public static final String CLIENT_ID = "sluice-gateway";
    public static final String EXPRESS = "-express";

    /**
     * @param maxEventBytes    the largest event JSON the gateway accepts (decompressed): the
     *                         producer must take it with its headers, or it would answer 503 forever
     * @param maxInFlightBytes the in-flight budget: every event being published is held in it, so
     *                         the producer's buffer is sized from it and a send never waits for room
     */
    public static Producer<byte[], byte[]> durableProducer(KafkaSettings kafka, String clientId, Duration publishTimeout, Duration linger,
                                                           int maxEventBytes, long maxInFlightBytes) {
        return new KafkaProducer<>(durableProducerProperties(kafka, clientId, publishTimeout, linger, maxEventBytes, maxInFlightBytes),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * The producer's buffer for an in-flight budget: twice the budget (a batch closes when the next
     * record does not fit, so a batch may be half empty) plus a whole batch for every batch that
     * may be open or awaiting its acknowledgement (per partition of the two event topics and the
     * outcomes topic: one open and five in flight). Allocated as used, not up front.
     */
    static long bufferMemory(long maxInFlightBytes, int partitions, long batchSize) {
        long batches = (2L * partitions + 1) * (MAX_IN_FLIGHT_REQUESTS + 1);
        return 2 * maxInFlightBytes + batches * batchSize;
    }

    /** Kafka's maximum for an idempotent producer (and its default). */
    private static final int MAX_IN_FLIGHT_REQUESTS = 5;

    /** The gateway producer's properties: the operator's client properties, then the gateway's own. */
    static Properties durableProducerProperties(KafkaSettings kafka, String clientId, Duration publishTimeout, Duration linger,
                                                int maxEventBytes, long maxInFlightBytes) {
        long maxRequestBytes = (long) maxEventBytes + RECORD_OVERHEAD_BYTES;
        if (maxRequestBytes > TopicSetup.MAX_EVENT_RECORD_BYTES) {
            throw new IllegalArgumentException("events of up to " + maxEventBytes + " bytes (decompressed) do not fit "
                    + "the event topics' " + TopicSetup.MAX_EVENT_RECORD_BYTES + " bytes per record; lower "
                    + "SLUICE_GATEWAY_MAX_DECOMPRESSED_BYTES to at most "
                    + (TopicSetup.MAX_EVENT_RECORD_BYTES - RECORD_OVERHEAD_BYTES));
        }
        Properties props = KafkaClients.producerProperties(kafka, clientId);
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Long.toString(maxRequestBytes));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        // Tuning an operator may change (SLUICE_KAFKA_PROPERTY_*): theirs wins. Linger has its own
        // setting, SLUICE_GATEWAY_PRODUCER_LINGER.
        props.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        props.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(128 * 1024));
        long batchSize = Long.parseLong(props.get(ProducerConfig.BATCH_SIZE_CONFIG).toString().strip());
        if (batchSize > MAX_BATCH_BYTES) {
            // Larger batches exhaust the producer's buffer: every send would fail, every client get 503.
            throw new IllegalArgumentException("batch.size " + batchSize + " (SLUICE_KAFKA_PROPERTY_BATCH_SIZE) is more than the "
                    + MAX_BATCH_BYTES + " bytes the gateway's producer may use per batch");
        }
        props.put(ProducerConfig.LINGER_MS_CONFIG, Long.toString(linger.toMillis()));
        // Kafka refuses a delivery timeout shorter than linger + request timeout: the linger and
        // the request both fit in the publish timeout.
        long timeoutMs = publishTimeout.toMillis();
        long requestTimeoutMs = timeoutMs - linger.toMillis() - 10;
        if (requestTimeoutMs < 1) {
            throw new IllegalArgumentException("SLUICE_GATEWAY_PRODUCER_LINGER (" + linger.toMillis() + " ms) leaves no time for "
                    + "Kafka's answer within SLUICE_GATEWAY_PUBLISH_TIMEOUT (" + timeoutMs + " ms): lower the one or raise the other");
        }
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(requestTimeoutMs));
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(timeoutMs));
        // send() runs on the event loop, so it never blocks: the buffer holds more than the
        // in-flight budget lets in, metadata is fetched at startup (warmUp) and kept however long
        // a topic is idle; a send that would still wait (a topic gone, its metadata lost) fails
        // at once, and the client gets 503.
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG,
                Long.toString(bufferMemory(maxInFlightBytes, kafka.topics().partitions(), batchSize)));
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "0");
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, Integer.toString(MAX_IN_FLIGHT_REQUESTS));
        props.put(ProducerConfig.METADATA_MAX_IDLE_CONFIG, Integer.toString(Integer.MAX_VALUE));
        return props;
    }

    /**
     * Fetches topic metadata now, for both producers, so that no send waits for it on the event
     * loop (the outcomes' too). A producer never blocks (max.block.ms 0): this asks again until
     * {@code timeout}.
     */
    public void warmUp(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (String topic : new String[] {topics.transactions(), topics.errors(), topics.sessions(), topics.outcomes()}) {
            while (true) {
                try {
                    partitionCounts.put(topic, producer.partitionsFor(topic).size());
                    express.partitionsFor(topic);
                    break;
                } catch (org.apache.kafka.common.errors.TimeoutException e) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("no metadata for topic " + topic + " from Kafka within "
                                + timeout.toSeconds() + " s", e);
                    }
                    sleep(20);
                }
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Kafka's metadata", e);
        }
    }

    /** @param token the project's token: the record's key and its project header */
    public CompletableFuture<Void> publish(String token, Endpoint endpoint, AcceptedEvent event, byte[] json, long receivedAtMillis) {
        String topic = switch (endpoint) {
            case TRANSACTION -> topics.transactions();
            case ERROR_REPORT -> topics.errors();
            case SESSION -> topics.sessions();
        };
        int partition = partitions.partition(token, event.eventId(), partitionCounts.get(topic));
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, partition, event.eventTimeMillis(),
                token.getBytes(StandardCharsets.UTF_8), json);
        EventHeaders.put(record.headers(), EventHeaders.EVENT_ID, event.eventId());
        EventHeaders.put(record.headers(), EventHeaders.PROJECT, token);
        EventHeaders.put(record.headers(), EventHeaders.ENDPOINT, endpoint.pathSegment());
        EventHeaders.put(record.headers(), EventHeaders.RECEIVED_AT, Long.toString(receivedAtMillis));
        EventHeaders.put(record.headers(), EventHeaders.EVENT_TIME, Long.toString(event.eventTimeMillis()));
        EventHeaders.put(record.headers(), EventHeaders.TIME_ADJUSTED, Boolean.toString(event.timeAdjusted()));
        EventHeaders.put(record.headers(), EventHeaders.GATEWAY_VERSION, GATEWAY_VERSION);
        if (event.fields() != null) {
            record.headers().add(FieldsHeader.NAME, event.fields());
        }

        CompletableFuture<Void> acknowledged = new CompletableFuture<>();
        Producer<byte[], byte[]> sender = awaiting.getAndIncrement() < expressBelow ? express : producer;
        try {
            sender.send(record, (metadata, error) -> {
                if (error == null) {
                    health.succeeded();
                    settle(acknowledged, null);
                } else {
                    failed(error);
                    settle(acknowledged, error);
                }
            });
        } catch (RuntimeException e) {
            failed(e);
            settle(acknowledged, e);
        }
        return acknowledged;
    }

    /**
     * A publish leaves the count once, whichever of its endings comes first, and before its future
     * completes: completing it writes the answer, and a client's next request must find its place free.
     */
    private void settle(CompletableFuture<Void> acknowledged, Throwable error) {
        if (acknowledged.isDone()) {
            return; // only a send that called back and then threw ends twice, both on this thread
        }
        awaiting.decrementAndGet();
        if (error == null) {
            acknowledged.complete(null);
        } else {
            acknowledged.completeExceptionally(error);
        }
    }

    /** Publishes sent and not yet acknowledged or failed. */
    int awaiting() {
        return awaiting.get();
    }

    /** Kafka failing, unless it refused the record for what the client sent. */
    private void failed(Throwable error) {
        if (!RecordFault.isRecords(error)) {
            health.failed(error);
        }
    }

    /** Sends what is buffered and waits for it, bounded, before closing. */
    @Override
    public void close() {
        // One deadline for both: the express producer holds a few events at most.
        long deadline = System.nanoTime() + CLOSE_TIMEOUT.toNanos();
        producer.close(CLOSE_TIMEOUT);
        if (express != producer) {
            express.close(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
    }

    /** How long closing may wait for what is buffered, both producers together. */
    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
}
