package io.sluice.processor;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.sluice.events.EventHeaders;
import io.sluice.kafka.TopicSetup;
import io.sluice.outcomes.OutcomeRow;

/** Writes raw events to Kafka exactly as the gateway does (key, headers, event-time timestamp). */
final class RawEvents implements AutoCloseable {
    private final KafkaProducer<byte[], byte[]> producer;

    RawEvents(String bootstrapServers) {
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                // Each send waits for its acknowledgement, so there is never a batch to fill: the
                // 5 ms default linger would only delay each of the thousands of events.
                ProducerConfig.LINGER_MS_CONFIG, "0",
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, TopicSetup.MAX_EVENT_RECORD_BYTES), // as large as the gateway sends
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    void transaction(String topic, String project, String eventId, Instant time, Integer status) {
        String tags = status == null ? "" : ", \"tags\": {\"http.status_code\": " + status + "}";
        send(topic, project, eventId, time, "{\"transaction\": \"GET /items/" + eventId + "\", \"environment\": \"production\"" + tags + "}");
    }

    /**
     * A transaction in the partition {@code eventId} hashes to, as the gateway's PartitionChooser
     * spreads a project's events over every partition (a retry, with the same id, lands beside its first copy).
     */
    void spreadTransaction(String topic, int partitions, String project, String eventId, Instant time, Integer status) {
        spreadTransaction(topic, partitions, project, eventId, time, status, null);
    }

    /** As {@link #spreadTransaction(String, int, String, String, Instant, Integer)}, kept by its client at {@code sampleRate} (null: not sampled). */
    void spreadTransaction(String topic, int partitions, String project, String eventId, Instant time, Integer status,
                           Double sampleRate) {
        String tags = status == null ? "" : ", \"tags\": {\"http.status_code\": " + status + "}";
        String rate = sampleRate == null ? "" : ", \"sample_rate\": " + sampleRate;
        send(topic, Math.floorMod(eventId.hashCode(), partitions), project, eventId, time,
                "{\"transaction\": \"GET /items/" + eventId + "\", \"environment\": \"production\"" + tags + rate + "}");
    }

    void error(String topic, String project, String eventId, Instant time, String type) {
        send(topic, project, eventId, time, "{\"environment\": \"production\", \"exception\": {\"values\": [{\"type\": \""
                + type + "\", \"value\": \"failed " + eventId + "\"}]}}");
    }

    /** A gateway's outcome count, as the gateway publishes it. */
    void outcome(String topic, OutcomeRow row) {
        try {
            producer.send(new ProducerRecord<>(topic, row.key(), row.json())).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot write an outcome row", e);
        }
    }

    /**
     * A Sentry session update of release shop@1.0 in production, on the partition the gateway
     * would choose for its session (every update of a session on one), its id the session's.
     *
     * @param fields the update's fields but its sid, start and attributes ({@code "init": true, "status": "ok"})
     */
    void session(String topic, int partition, String project, int session, Instant started, Instant received, String fields) {
        String sid = String.format("%08x-0000-4000-8000-000000000000", session);
        send(topic, partition, project, sid.replace("-", ""), received, "{\"sid\": \"" + sid + "\", " + fields + ", \"started\": \""
                + started + "\", \"attrs\": {\"release\": \"shop@1.0\", \"environment\": \"production\"}}");
    }

    void send(String topic, String project, String eventId, Instant time, String json) {
        send(topic, null, project, eventId, time, json);
    }

    /** @param partition the record's partition, null for the one its key (the project) hashes to */
    void send(String topic, Integer partition, String project, String eventId, Instant time, String json) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, partition, time.toEpochMilli(),
                project.getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8));
        if (eventId != null) {
            EventHeaders.put(record.headers(), EventHeaders.EVENT_ID, eventId);
            EventHeaders.put(record.headers(), EventHeaders.PROJECT, project);
            EventHeaders.put(record.headers(), EventHeaders.EVENT_TIME, Long.toString(time.toEpochMilli()));
            EventHeaders.put(record.headers(), EventHeaders.RECEIVED_AT, Long.toString(time.toEpochMilli()));
        }
        try {
            producer.send(record).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot write a raw event", e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
