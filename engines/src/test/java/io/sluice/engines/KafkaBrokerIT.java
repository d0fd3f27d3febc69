package io.sluice.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 15, unit = TimeUnit.MINUTES)
class KafkaBrokerIT {
    @TempDir
    Path dataDir;

    @Test
    void restartOnTheSameDirectoryKeepsTheRecords() throws Exception {
        int port = Ports.free();
        int controllerPort = Ports.free();
        try (KafkaBroker broker = KafkaBroker.start(dataDir, port, controllerPort)) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("kept", 1, (short) 1))).all().get();
            }
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                    ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer())) {
                producer.send(new ProducerRecord<>("kept", "k", "before restart")).get();
            }
        }
        try (KafkaBroker restarted = KafkaBroker.start(dataDir, port, controllerPort)) {
            assertEquals(List.of("before restart"), readAll(restarted.bootstrapServers(), "kept", 1));
        }
    }

    @Test
    void aTakenPortIsReportedByName() throws Exception {
        try (var taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            var error = assertThrows(Ports.PortTakenException.class,
                    () -> KafkaBroker.start(dataDir, taken.getLocalPort(), Ports.free()));
            assertTrue(error.getMessage().contains("for Kafka is already in use"), error.getMessage());
        }
    }

    @Test
    void aScramBrokerLetsItsUserIn() throws Exception {
        var user = new KafkaBroker.ScramUser("sluice", "right-password");
        try (KafkaBroker broker = KafkaBroker.startWithScram(dataDir, Ports.free(), Ports.free(), user);
             Admin admin = Admin.create(clientOf(broker, user.jaasConfig()))) {
            admin.createTopics(List.of(new NewTopic("secured", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            assertTrue(admin.listTopics().names().get(30, TimeUnit.SECONDS).contains("secured"));
        }
    }

    @Test
    void aScramBrokerRefusesAWrongPasswordAtOnce() {
        var user = new KafkaBroker.ScramUser("sluice", "right-password");
        try (KafkaBroker broker = KafkaBroker.startWithScram(dataDir, Ports.free(), Ports.free(), user);
             Admin admin = Admin.create(clientOf(broker, user.jaasConfig("wrong-password")))) {
            var error = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> admin.listTopics().names().get(30, TimeUnit.SECONDS));
            assertInstanceOf(org.apache.kafka.common.errors.SaslAuthenticationException.class, error.getCause());
        }
    }

    private static Map<String, Object> clientOf(KafkaBroker broker, String jaasConfig) {
        Map<String, Object> props = new java.util.HashMap<>(broker.clientProperties());
        props.put("bootstrap.servers", broker.bootstrapServers());
        props.put("sasl.jaas.config", jaasConfig);
        return props;
    }

    private static List<String> readAll(String bootstrap, String topic, int expected) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "reader");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(Set.of(topic));
            java.util.ArrayList<String> values = new java.util.ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (values.size() < expected && System.nanoTime() < deadline) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                records.forEach(r -> values.add(r.value()));
            }
            return values;
        }
    }
}
