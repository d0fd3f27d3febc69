package io.sluice.bench.run;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.sluice.config.KafkaSettings;
import io.sluice.kafka.KafkaClients;

/**
 * Keeps what is published to a topic from a reader that reads exactly once ({@code read_committed},
 * as the processor does) until {@link #open}: an open transaction with one record in each partition
 * holds the partitions' last stable offset there, and such a reader reads no further. So a warm
 * processor, running, waits while the gateway's runs build its backlog, and then sees the whole of it
 * at once. Opening aborts the transaction, whose records readers then skip: it leaves in each
 * partition two offsets that hold no event, its record and the abort's marker.
 */
final class BacklogGate implements AutoCloseable {
    /** The longest a transaction may stay open by the broker's default ({@code transaction.max.timeout.ms}). */
    static final Duration LONGEST = Duration.ofMinutes(15);

    private final KafkaProducer<byte[], byte[]> producer;
    private final int partitions;

    private BacklogGate(KafkaProducer<byte[], byte[]> producer, int partitions) {
        this.producer = producer;
        this.partitions = partitions;
    }

    static BacklogGate hold(KafkaSettings kafka, String topic) {
        Properties props = KafkaClients.producerProperties(kafka, "sluice-bench-backlog-gate");
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "sluice-bench-backlog-gate-" + topic);
        props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) LONGEST.toMillis());
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        try {
            producer.initTransactions();
            producer.beginTransaction();
            List<PartitionInfo> partitions = producer.partitionsFor(topic);
            for (PartitionInfo partition : partitions) {
                producer.send(new ProducerRecord<>(topic, partition.partition(), null, new byte[0]));
            }
            producer.flush();
            return new BacklogGate(producer, partitions.size());
        } catch (RuntimeException e) {
            producer.close(Duration.ofSeconds(10)); // a graceful close aborts what was sent; a forced one leaves it open
            throw e;
        }
    }

    /**
     * Aborts the transaction: readers read on.
     *
     * @return the offsets the gate took that hold no event, two a partition
     * @throws IllegalStateException when the broker had aborted it already, after {@link #LONGEST}:
     *                               the reader read on from then
     */
    long open() {
        try {
            producer.abortTransaction();
        } catch (RuntimeException e) {
            throw new IllegalStateException("the backlog gate was open before its end (the broker aborts a transaction after "
                    + LONGEST.toMinutes() + " minutes): the processor read part of its backlog as it came", e);
        }
        return 2L * partitions;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
