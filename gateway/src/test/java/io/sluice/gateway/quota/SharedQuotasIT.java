package io.sluice.gateway.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.kafka.KafkaClients;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * One gateway's {@link SharedQuotas} on the real broker, fed reports by hand: what it does with a
 * report it must not believe.
 */
@ExtendWith(RealEngines.class)
@Timeout(120)
class SharedQuotasIT {
    private static final Duration FOLLOWING = Duration.ofSeconds(30);

    @Test
    void aReportWithANegativeCountIsDroppedAndCountedLeavingTheShareWhole(Engines engines) throws Exception {
        KafkaSettings kafka = ownTopic(engines, "quota-negative");
        try (KafkaProducer<byte[], byte[]> others = producer(kafka);
             SharedQuotas quotas = new SharedQuotas(kafka)) {
            assertTrue(quotas.awaitFollowing(FOLLOWING));
            byte[] negative = new UsageReport("stranger", false, Map.of("p", 1)).value();
            ByteBuffer.wrap(negative).putInt(negative.length - 4, -1);
            send(others, kafka, "stranger", System.currentTimeMillis(), negative);
            // One partition: once the marker's report counts, the one sent before it was read.
            send(others, kafka, "marker", System.currentTimeMillis(), new UsageReport("marker", false, Map.of("q", 1)).value());
            Await.until("the marker's report read", Duration.ofSeconds(10), 0.5, () -> quotas.shareOf("q"));

            assertEquals(1.0, quotas.shareOf("p"), "nobody else was asked for p");
            assertEquals(1, quotas.reportsRefused());
        }
    }

    /** Settings whose quota usage topic is this test's own, one partition as the gateways' is. */
    private static KafkaSettings ownTopic(Engines engines, String topic) throws Exception {
        KafkaSettings kafka = KafkaSettings.from(new Settings(Map.of("SLUICE_KAFKA_BOOTSTRAP_SERVERS", engines.kafkaBootstrapServers(),
                "SLUICE_TOPIC_QUOTA_USAGE", topic)));
        try (Admin admin = Admin.create(KafkaClients.adminProperties(kafka, null))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        return kafka;
    }

    private static KafkaProducer<byte[], byte[]> producer(KafkaSettings kafka) {
        return new KafkaProducer<>(KafkaClients.producerProperties(kafka, "quota-reports-by-hand"), new ByteArraySerializer(),
                new ByteArraySerializer());
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, KafkaSettings kafka, String gateway, long timestamp, byte[] value) {
        producer.send(new ProducerRecord<>(kafka.topics().quotaUsage(), null, timestamp, gateway.getBytes(StandardCharsets.UTF_8), value));
    }
}
