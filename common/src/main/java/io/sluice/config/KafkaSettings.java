package io.sluice.config;

import java.util.List;
import java.util.stream.Stream;

/**
 * Kafka settings that gateway, processor and the CLI share: where the brokers are, the topics,
 * and the client properties (security) every client gets. Its {@code toString} hides secrets.
 */
public record KafkaSettings(String bootstrapServers, Topics topics, KafkaClientProperties clientProperties) {
    public static final Setting BOOTSTRAP_SERVERS = new Setting("SLUICE_KAFKA_BOOTSTRAP_SERVERS",
            "127.0.0.1:9092", "Kafka bootstrap servers (host:port, comma-separated).");

    /** The bootstrap servers, the client properties file and every topic setting. */
    public static final List<Setting> SETTINGS = Stream.concat(
            Stream.of(BOOTSTRAP_SERVERS, KafkaClientProperties.PROPERTIES_FILE), Topics.SETTINGS.stream()).toList();

    /** No client properties beyond Kafka's defaults (a plaintext cluster). */
    public KafkaSettings(String bootstrapServers, Topics topics) {
        this(bootstrapServers, topics, KafkaClientProperties.NONE);
    }

    /** The default topics at these brokers: for tools and tests given only an address. */
    public static KafkaSettings at(String bootstrapServers) {
        return from(new Settings(java.util.Map.of(BOOTSTRAP_SERVERS.name(), bootstrapServers)));
    }

    /** Throws IllegalArgumentException naming every invalid setting or Kafka client property. */
    public static KafkaSettings from(Settings settings) {
        return new KafkaSettings(settings.get(BOOTSTRAP_SERVERS), Topics.from(settings), KafkaClientProperties.from(settings));
    }
}
