package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.config.KafkaSettings;
import io.sluice.kafka.KafkaClients;
import io.sluice.projects.Project;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.ProjectJson;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * A gateway that starts after the projects topic was compacted still knows a revoked or expired
 * DSN key as no guess: 401, and the address sending it (a NAT full of browsers with an old DSN) is
 * not locked out; a project whose latest record cannot be read, known to it by that record only, is
 * 503 {@code project_unavailable} to its own keys, never a failed login. Compaction is done as Kafka's cleaner would leave the topic: the latest record of
 * each project, copied to a new topic that the fresh gateway follows from its start.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SentryKeysAfterCompactionIT {
    private static final byte[] GOOD = "{}\n{\"type\":\"event\"}\n{\"message\":\"fine\"}\n".getBytes(StandardCharsets.UTF_8);
    private static final int BURST = 3;
    private static final String TRANSACTION = "{\"transaction\":\"GET /x\"}";

    static Engines engines;
    static String written;
    static String compacted;
    static ProjectAdmin.NewProject revoked;
    static ProjectAdmin.NewProject expired;
    static ProjectAdmin.NewProject neighbour;
    static ProjectAdmin.NewProject unreadable;
    static TestGateway gateway;

    @BeforeAll
    static void revokeAndExpireThenCompactThenStartAFreshGateway(Engines started) throws Exception {
        engines = started;
        String suffix = UUID.randomUUID().toString();
        written = "sluice.projects.before-compaction-" + suffix;
        compacted = "sluice.projects.compacted-" + suffix;
        createCompactedTopics(written, compacted);
        try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), written)) {
            revoked = admin.create("revoked-before-compaction");
            admin.rotateDsnKey(revoked.token(), Duration.ofHours(1));
            admin.revokeDsnKey(revoked.token(), revoked.dsnKey().id());
            expired = admin.create("expired-before-compaction");
            admin.rotateDsnKey(expired.token(), Duration.ZERO);
            neighbour = admin.create("neighbour-after-compaction");
            unreadable = admin.create("unreadable-after-compaction");
        }
        // A record no gateway can read replaces the project's last readable one.
        produce(written, Map.of(unreadable.token(), "{\"name\":\"cut short".getBytes(StandardCharsets.UTF_8)));
        copyLatestRecordOfEachProject(written, compacted);
        gateway = TestGateway.start(engines, Map.of("SLUICE_TOPIC_PROJECTS", compacted,
                "SLUICE_GATEWAY_AUTH_FAILURE_BURST", Integer.toString(BURST),
                "SLUICE_GATEWAY_AUTH_FAILURES_PER_MINUTE", "1", "SLUICE_GATEWAY_TRUSTED_PROXIES", "127.0.0.1/32"));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void theFreshGatewayReadsOnlyTheLatestRecordOfEachProject() throws Exception {
        assertEquals(8, records(written).size(), "created, rotated, revoked; created, rotated; created; created, cut short");
        List<ConsumerRecord<byte[], byte[]>> latest = records(compacted);
        assertEquals(4, latest.size());
        for (ConsumerRecord<byte[], byte[]> record : latest.subList(0, 3)) {
            Project project = ProjectJson.read(record.value());
            assertTrue(project.dsnKeys().stream().noneMatch(key -> key.publicKey().equals(revoked.dsnKey().publicKey())),
                    "no record left holds the revoked key as a DSN key");
        }
    }

    @Test
    void aKeyRevokedBeforeCompactionIs401AndLocksNobodyOut() {
        for (int i = 0; i < BURST + 2; i++) {
            HttpResponse<String> refused = post(revoked, revoked.dsnKey().publicKey(), "192.0.2.21");
            assertEquals(401, refused.statusCode(), refused.body());
            // As a gateway that saw the key go answers: the same words as for a key matching nothing.
            assertEquals("{\"error\":\"unauthorized\",\"message\":\"missing or invalid credentials: use this project's DSN "
                    + "(its public key as sentry_key, its numeric id in the path)\"}", refused.body());
        }
        HttpResponse<String> served = post(neighbour, neighbour.dsnKey().publicKey(), "192.0.2.21");
        assertEquals(200, served.statusCode(), served.body());
    }

    @Test
    void aKeyExpiredBeforeCompactionIs401AndLocksNobodyOut() {
        for (int i = 0; i < BURST + 2; i++) {
            HttpResponse<String> refused = post(expired, expired.dsnKey().publicKey(), "192.0.2.22");
            assertEquals(401, refused.statusCode(), refused.body());
            assertEquals("{\"error\":\"unauthorized\",\"message\":\"this DSN key has expired: use the project's current DSN\"}",
                    refused.body());
        }
        HttpResponse<String> served = post(neighbour, neighbour.dsnKey().publicKey(), "192.0.2.22");
        assertEquals(200, served.statusCode(), served.body());
    }

    @Test
    void aProjectKnownOnlyByAnUnreadableRecordIs503ToItsPrivateKeyAndLocksNobodyOut() {
        for (int i = 0; i < BURST + 2; i++) {
            HttpResponse<String> refused = postTransaction(unreadable, "192.0.2.23");
            assertEquals(503, refused.statusCode(), refused.body());
            assertTrue(refused.body().startsWith("{\"error\":\"project_unavailable\""), refused.body());
        }
        HttpResponse<String> served = postTransaction(neighbour, "192.0.2.23");
        assertEquals(200, served.statusCode(), served.body());
    }

    @Test
    void aProjectKnownOnlyByAnUnreadableRecordIs503ToItsDsnAndLocksNobodyOut() {
        for (int i = 0; i < BURST + 2; i++) {
            HttpResponse<String> refused = post(unreadable, unreadable.dsnKey().publicKey(), "192.0.2.24");
            assertEquals(503, refused.statusCode(), refused.body());
            assertTrue(refused.body().startsWith("{\"error\":\"project_unavailable\""), refused.body());
        }
        HttpResponse<String> served = post(neighbour, neighbour.dsnKey().publicKey(), "192.0.2.24");
        assertEquals(200, served.statusCode(), served.body());
    }

    /** A transaction with the project's private key, from the client {@code from}. */
    private static HttpResponse<String> postTransaction(ProjectAdmin.NewProject project, String from) {
        return TestGateway.send(HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + gateway.port() + "/api/v1/"
                        + project.token() + "/transaction"))
                .header("X-Forwarded-For", from)
                .header("Authorization", "Bearer " + project.key()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(TRANSACTION)).build());
    }

    /** From the client {@code from}, as the trusted proxy 127.0.0.1 says. */
    private static HttpResponse<String> post(ProjectAdmin.NewProject path, String publicKey, String from) {
        return TestGateway.send(HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + gateway.port() + "/api/"
                        + path.numericId() + "/envelope/"))
                .header("X-Forwarded-For", from)
                .header("X-Sentry-Auth", "Sentry sentry_version=7, sentry_key=" + publicKey)
                .POST(HttpRequest.BodyPublishers.ofByteArray(GOOD)).build());
    }

    /** One partition, compacted: as the gateway creates its projects topic. */
    private static void createCompactedTopics(String... names) throws Exception {
        try (Admin admin = Admin.create(KafkaClients.adminProperties(KafkaSettings.at(engines.kafkaBootstrapServers()), null))) {
            admin.createTopics(java.util.Arrays.stream(names).map(name -> new NewTopic(name, 1, (short) 1)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT))).toList())
                    .all().get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * What compaction leaves: per key, only its latest value, raw bytes as written (a project whose
     * latest record is a tombstone would go too, once the cleaner drops tombstones).
     */
    private static void copyLatestRecordOfEachProject(String from, String to) throws Exception {
        Map<String, byte[]> latest = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records(from)) {
            latest.remove(new String(record.key(), StandardCharsets.UTF_8)); // kept in the order of the latest offsets
            latest.put(new String(record.key(), StandardCharsets.UTF_8), record.value());
        }
        latest.values().removeIf(java.util.Objects::isNull);
        produce(to, latest);
    }

    /** Writes these values, raw bytes, under these keys, in order. */
    private static void produce(String topic, Map<String, byte[]> values) throws Exception {
        Properties props = KafkaClients.producerProperties(KafkaSettings.at(engines.kafkaBootstrapServers()), null);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (Map.Entry<String, byte[]> entry : values.entrySet()) {
                producer.send(new ProducerRecord<>(topic, entry.getKey().getBytes(StandardCharsets.UTF_8), entry.getValue()))
                        .get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> records(String topic) {
        return KafkaRecords.upToEnd(engines, topic, Duration.ofSeconds(30), record -> true);
    }
}
