package io.sluice.gateway;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Setting;
import io.sluice.config.Settings;
import io.sluice.events.EventTime;

/** Everything the gateway is configured with, read once at startup. */
public record GatewayConfig(String host, int port, KafkaSettings kafka, int maxBodyBytes, int maxDecompressedBytes,
                            Duration publishTimeout, Duration eventTimeHorizon, Duration readyTimeout) {
    public static final Setting HOST = new Setting("SLUICE_GATEWAY_HOST", "127.0.0.1",
            "Address the gateway listens on (0.0.0.0 to accept from other machines).");
    public static final Setting PORT = new Setting("SLUICE_GATEWAY_PORT", "8080", "Port of the ingest API.");
    public static final Setting MAX_BODY_BYTES = new Setting("SLUICE_GATEWAY_MAX_BODY_BYTES", "1048576",
            "Largest request body as sent (compressed or not); larger gets 413.");
    public static final Setting MAX_DECOMPRESSED_BYTES = new Setting("SLUICE_GATEWAY_MAX_DECOMPRESSED_BYTES", "1048576",
            "Largest body after decompression; larger gets 413 (checked while decompressing).");
    public static final Setting PUBLISH_TIMEOUT = new Setting("SLUICE_GATEWAY_PUBLISH_TIMEOUT", "5s",
            "How long an event may wait for Kafka's acknowledgement before the client gets 503.");
    public static final Setting READY_TIMEOUT = new Setting("SLUICE_GATEWAY_READY_TIMEOUT", "60s",
            "How long startup waits for Kafka and the project registry before giving up.");

    public static final List<Setting> SETTINGS = List.of(HOST, PORT, MAX_BODY_BYTES, MAX_DECOMPRESSED_BYTES,
            PUBLISH_TIMEOUT, READY_TIMEOUT);

    public static GatewayConfig from(Settings settings) {
        return new GatewayConfig(settings.get(HOST), settings.getInt(PORT), KafkaSettings.from(settings),
                settings.getInt(MAX_BODY_BYTES), settings.getInt(MAX_DECOMPRESSED_BYTES),
                settings.getDuration(PUBLISH_TIMEOUT), settings.getDuration(EventTime.HORIZON),
                settings.getDuration(READY_TIMEOUT));
    }

    /** Every setting the gateway reads, its own and the shared ones. */
    public static List<Setting> allSettings() {
        return Stream.of(SETTINGS, KafkaSettings.SETTINGS, EventTime.SETTINGS).flatMap(List::stream).toList();
    }
}
