package io.sluice.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.sluice.config.KafkaSettings;
import io.sluice.events.EventHeaders;
import io.sluice.kafka.KafkaClients;

/**
 * Puts rows ClickHouse refused into the dead-letter topic, with the same headers as the
 * processor's own dead letters: the reason (ClickHouse's message) and the source record. Returns
 * only once Kafka has them, so the sink may then commit past them.
 */
public final class DeadLetters implements AutoCloseable {
    /** The header names of io.sluice.processor.topology.ToDeadLetter. */
    public static final String REASON = "sluice.dead_letter.reason";
    /** Where the record came from: {@code topic/partition@offset}; {@code ./sluice dead-letters replay} sends it back there. */
    public static final String SOURCE = "sluice.dead_letter.source";
    /** Present when the value was too large to carry: its size; the original stays at {@link #SOURCE}. */
    public static final String VALUE_OMITTED = "sluice.dead_letter.value_omitted";
    /** Every header of a dead letter's own starts with this; the rest are the original record's. */
    public static final String HEADER_PREFIX = "sluice.dead_letter.";
    private static final int MAX_REASON_CHARS = 4096;

    private final String topic;
    private final KafkaProducer<byte[], byte[]> producer;

    public DeadLetters(KafkaSettings kafka, String topic, String clientId) {
        this.topic = topic;
        Properties props = KafkaClients.producerProperties(kafka, clientId);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(16 * 1024 * 1024));
        this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Writes them all and waits until Kafka acknowledged every one; throws if one failed. */
    public void send(List<RowInserter.Refused> refused) throws Exception {
        List<Future<RecordMetadata>> sent = new ArrayList<>(refused.size());
        for (RowInserter.Refused letter : refused) {
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, letter.row().key(), letter.row().value());
            String reason = letter.reason().length() > MAX_REASON_CHARS
                    ? letter.reason().substring(0, MAX_REASON_CHARS) : letter.reason();
            EventHeaders.put(record.headers(), REASON, reason);
            EventHeaders.put(record.headers(), SOURCE, letter.row().source());
            sent.add(producer.send(record));
        }
        for (Future<RecordMetadata> future : sent) {
            future.get(60, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
