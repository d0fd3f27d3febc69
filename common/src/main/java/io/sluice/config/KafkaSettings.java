package io.sluice.config;

import java.util.List;

/** Kafka settings that gateway, processor and the CLI share. */
public record KafkaSettings(String bootstrapServers, Topics topics) {
    public static final Setting BOOTSTRAP_SERVERS = new Setting("SLUICE_KAFKA_BOOTSTRAP_SERVERS",
            "127.0.0.1:9092", "Kafka bootstrap servers (host:port, comma-separated).");

    /** The bootstrap servers and every topic setting. */
    public static final List<Setting> SETTINGS = java.util.stream.Stream.concat(
            java.util.stream.Stream.of(BOOTSTRAP_SERVERS), Topics.SETTINGS.stream()).toList();

    /** The default topics at these brokers: for tools and tests given only an address. */
    public static KafkaSettings at(String bootstrapServers) {
        return from(new Settings(java.util.Map.of(BOOTSTRAP_SERVERS.name(), bootstrapServers)));
    }

    public static KafkaSettings from(Settings settings) {
        return new KafkaSettings(settings.get(BOOTSTRAP_SERVERS), Topics.from(settings));
    }
}
