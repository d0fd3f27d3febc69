package io.sluice.stack;

import java.nio.file.Path;
import java.util.List;

import io.sluice.config.Setting;
import io.sluice.config.Settings;

/** Where the local all-in-one stack keeps its data and which loopback ports it uses. */
public record StackConfig(Path home, int gatewayPort, int kafkaPort, int kafkaControllerPort,
                          int clickHouseHttpPort, int clickHouseTcpPort) {
    public static final Setting HOME = new Setting("SLUICE_HOME", ".sluice",
            "Directory of the local stack's data and logs (./sluice dev).");
    public static final Setting KAFKA_PORT = new Setting("SLUICE_DEV_KAFKA_PORT", "9092",
            "Kafka port of the local stack.").between(0, 65535);
    public static final Setting KAFKA_CONTROLLER_PORT = new Setting("SLUICE_DEV_KAFKA_CONTROLLER_PORT", "9093",
            "KRaft controller port of the local stack.").between(0, 65535);
    public static final Setting CLICKHOUSE_HTTP_PORT = new Setting("SLUICE_DEV_CLICKHOUSE_HTTP_PORT", "8123",
            "ClickHouse HTTP port of the local stack.").between(0, 65535);
    public static final Setting CLICKHOUSE_TCP_PORT = new Setting("SLUICE_DEV_CLICKHOUSE_TCP_PORT", "9000",
            "ClickHouse native-protocol port of the local stack.").between(0, 65535);

    public static final List<Setting> SETTINGS = List.of(HOME, KAFKA_PORT, KAFKA_CONTROLLER_PORT,
            CLICKHOUSE_HTTP_PORT, CLICKHOUSE_TCP_PORT);

    public static StackConfig from(Settings settings) {
        return new StackConfig(Path.of(settings.get(HOME)).toAbsolutePath(),
                settings.getInt(io.sluice.gateway.GatewayConfig.PORT),
                settings.getInt(KAFKA_PORT), settings.getInt(KAFKA_CONTROLLER_PORT),
                settings.getInt(CLICKHOUSE_HTTP_PORT), settings.getInt(CLICKHOUSE_TCP_PORT));
    }

    public Path logs() {
        return home.resolve("logs");
    }
}
