package io.sluice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.kafka.KafkaClients;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/** The processor, which reads exactly once, sees none of what is published behind the held gate, then all of it at once. */
@ExtendWith(RealEngines.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class BacklogGateIT {
    private static final int BEHIND = 5;

    @TempDir
    Path stateDir;

    @Test
    void aReaderThatReadsExactlyOnceSeesNothingPublishedBehindTheHeldGate(Engines engines) throws Exception {
        KafkaSettings kafka = kafka("gate_held", engines);
        String topic = kafka.topics().transactions();
        try (BacklogGate gate = BacklogGate.hold(kafka, topic); KafkaConsumer<byte[], byte[]> reader = reader(kafka, topic)) {
            publish(kafka, topic);
            assertEquals(0, read(reader, Duration.ofSeconds(5), BEHIND), "records read behind the held gate");
        }
    }

    @Test
    void onceOpenItsReaderSeesEveryRecordBehindItAndNoneOfTheGatesOwn(Engines engines) throws Exception {
        KafkaSettings kafka = kafka("gate_open", engines);
        String topic = kafka.topics().transactions();
        try (BacklogGate gate = BacklogGate.hold(kafka, topic); KafkaConsumer<byte[], byte[]> reader = reader(kafka, topic)) {
            publish(kafka, topic);
            assertEquals(4, gate.open(), "offsets that hold no event: a record and a marker in each of 2 partitions");
            assertEquals(BEHIND, read(reader, Duration.ofSeconds(10), BEHIND + 1), "records read once the gate is open");
        }
    }

    private KafkaSettings kafka(String name, Engines engines) {
        Map<String, String> values = TestSettings.isolated(name, engines, stateDir).toMap();
        values.put("SLUICE_TOPIC_PARTITIONS", "2");
        KafkaSettings kafka = KafkaSettings.from(new Settings(values));
        TopicSetup.ensureTopics(kafka);
        return kafka;
    }

    private static void publish(KafkaSettings kafka, String topic) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(KafkaClients.producerProperties(kafka, null),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < BEHIND; i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, i % 2, null, ("event " + i).getBytes(StandardCharsets.UTF_8))));
            }
            for (java.util.concurrent.Future<?> send : sent) {
                send.get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static KafkaConsumer<byte[], byte[]> reader(KafkaSettings kafka, String topic) {
        Properties props = KafkaClients.consumerProperties(kafka, null);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        KafkaConsumer<byte[], byte[]> reader = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
        reader.assign(partitions);
        reader.seekToBeginning(partitions);
        return reader;
    }

    /** Records read within {@code patience}, or until {@code enough} were. */
    private static int read(KafkaConsumer<byte[], byte[]> reader, Duration patience, int enough) {
        int read = 0;
        long deadline = System.nanoTime() + patience.toNanos();
        while (read < enough && System.nanoTime() < deadline) {
            read += reader.poll(Duration.ofMillis(200)).count();
        }
        return read;
    }
}
