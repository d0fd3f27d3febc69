package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** The gateway's registry follower survives malformed records, and readiness tells when it stopped. */
@ExtendWith(RealEngines.class)
class RegistryFollowerIT {
    private static final String TRANSACTION = "{\"transaction\": \"GET /\"}";

    @Test
    @Timeout(90)
    void malformedRegistryRecordsAreSkippedAndALaterProjectStillWorks(Engines engines) throws Exception {
        String topic = "registry-follower-it.malformed";
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_TOPIC_PROJECTS", topic))) {
            try (KafkaProducer<byte[], byte[]> producer = producer(engines)) {
                // (A record without key cannot be written: the registry topic is compacted.)
                producer.send(new ProducerRecord<>(topic, bytes("bad-json"), bytes("not json"))).get();
                producer.send(new ProducerRecord<>(topic, bytes("json-null"), bytes("null"))).get();
                producer.send(new ProducerRecord<>(topic, bytes("key-without-hash"), bytes(
                        "{\"token\": \"key-without-hash\", \"name\": \"x\", \"disabled\": false, \"keys\": [{\"id\": \"k1\"}]}"))).get();
            }
            ProjectAdmin.NewProject project;
            try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), topic)) {
                project = admin.create("after-the-bad-records");
            }
            gateway.awaitKnown(project);

            assertEquals(200, gateway.post(project, "transaction", TRANSACTION).statusCode());
            assertTrue(gateway.admin("/metrics").body().contains("\nsluice_gateway_registry_skipped_records_total 3.0\n"));
            assertEquals(200, gateway.admin("/readyz").statusCode());
        }
    }

    /**
     * The follower is stopped from outside, as a fault would: its thread is interrupted, which
     * makes the Kafka consumer throw. No hook in the gateway for this.
     */
    @Test
    @Timeout(90)
    void aStoppedFollowerMakesTheGatewayNotReadyAndSaysWhy(Engines engines) throws Exception {
        String topic = "registry-follower-it.stopped";
        Set<Thread> before = followers();
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_TOPIC_PROJECTS", topic))) {
            assertEquals(200, gateway.admin("/readyz").statusCode());
            Set<Thread> ours = followers();
            ours.removeAll(before);
            assertEquals(1, ours.size());
            ours.forEach(Thread::interrupt);

            assertEquals(503, Await.until(Duration.ofSeconds(10), 503, () -> gateway.admin("/readyz").statusCode()));
            HttpResponse<String> ready = gateway.admin("/readyz");
            assertTrue(ready.body().startsWith("{\"status\":\"not_ready\",\"reasons\":[\"project registry stopped following "
                    + topic + ": org.apache.kafka.common.errors.InterruptException"), ready.body());
        }
    }

    private static Set<Thread> followers() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals("sluice-registry") && thread.isAlive())
                .collect(Collectors.toSet());
    }

    private static KafkaProducer<byte[], byte[]> producer(Engines engines) {
        Properties props = new Properties();
        props.put("bootstrap.servers", engines.kafkaBootstrapServers());
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
