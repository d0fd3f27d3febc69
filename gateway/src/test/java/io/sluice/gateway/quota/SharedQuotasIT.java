package io.sluice.gateway.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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
 * report it must not believe, and with reports stamped by a clock that runs ahead.
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

    @Test
    void aGatewayAskedForNothingReportsOnlyOftenEnoughToStayCounted(Engines engines) throws Exception {
        KafkaSettings kafka = ownTopic(engines, "quota-idle");
        try (SharedQuotas quotas = new SharedQuotas(kafka)) {
            assertTrue(quotas.awaitFollowing(FOLLOWING));
            Thread.sleep(1_000);
            long before = quotas.reportsPublished();
            Thread.sleep(9_000);
            long reports = quotas.reportsPublished() - before;
            // One every IDLE_INTERVAL (750 ms): 12 in 9 s, 13 at a boundary; before, one every INTERVAL (250 ms): 36.
            assertTrue(reports <= 13, reports + " reports in 9 s");
        }
    }

    /**
     * A gateway whose clock runs 30 s ahead has reported for a while; five others reported, then
     * died without saying so 2 s ago (longer than {@link SharedQuotas#FORGET_AFTER}). A gateway
     * that starts then knows two: itself and the one ahead, never the five.
     */
    @Test
    void aGatewayWhoseClockRunsAheadDoesNotMakeAStartingOneCountTheDeparted(Engines engines) throws Exception {
        KafkaSettings kafka = ownTopic(engines, "quota-ahead");
        ScheduledExecutorService ahead = Executors.newSingleThreadScheduledExecutor();
        try (KafkaProducer<byte[], byte[]> others = producer(kafka)) {
            byte[] aheadReport = new UsageReport("ahead", false, Map.of("p", 1)).value();
            ahead.scheduleAtFixedRate(() -> send(others, kafka, "ahead", System.currentTimeMillis() + 30_000, aheadReport),
                    0, SharedQuotas.INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
            Thread.sleep(500);
            for (int i = 0; i < 5; i++) {
                send(others, kafka, "departed-" + i, System.currentTimeMillis(),
                        new UsageReport("departed-" + i, false, Map.of("p", 1000)).value());
            }
            others.flush();
            Thread.sleep(2_000);

            try (SharedQuotas quotas = new SharedQuotas(kafka)) {
                assertTrue(quotas.awaitFollowing(FOLLOWING));
                int most = 0;
                for (long end = System.nanoTime() + SharedQuotas.FORGET_AFTER.toNanos(); System.nanoTime() < end; ) {
                    most = Math.max(most, quotas.gateways());
                    Thread.sleep(50);
                }
                assertEquals(2, most, "the most gateways it counted in the " + SharedQuotas.FORGET_AFTER.toMillis()
                        + " ms after it followed");
            }
        } finally {
            ahead.shutdownNow();
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
