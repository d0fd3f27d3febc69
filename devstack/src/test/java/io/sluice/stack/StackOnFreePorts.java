package io.sluice.stack;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import io.sluice.config.Settings;
import io.sluice.engines.Ports;

/** A local stack a test starts: its own home, free ports, small enough for a shared machine; it prints nothing. */
record StackOnFreePorts(Settings settings, StackConfig config) {
    static StackOnFreePorts in(Path home) {
        Settings settings = new Settings(variables(home));
        return new StackOnFreePorts(settings, StackConfig.from(settings));
    }

    /** The variables of such a stack, for a {@code ./sluice dev} the test starts as a process. */
    static Map<String, String> variables(Path home) {
        return Map.of(
                "SLUICE_HOME", home.toString(),
                "SLUICE_GATEWAY_PORT", Integer.toString(Ports.free()),
                "SLUICE_GATEWAY_ADMIN_PORT", "0",
                "SLUICE_DEV_KAFKA_PORT", Integer.toString(Ports.free()),
                "SLUICE_DEV_KAFKA_CONTROLLER_PORT", Integer.toString(Ports.free()),
                "SLUICE_DEV_CLICKHOUSE_HTTP_PORT", Integer.toString(Ports.free()),
                "SLUICE_DEV_CLICKHOUSE_TCP_PORT", Integer.toString(Ports.free()),
                "SLUICE_TOPIC_PARTITIONS", "2",
                "SLUICE_PROCESSOR_THREADS", "1",
                "SLUICE_PROCESSOR_ADMIN_PORT", "0");
    }

    LocalStack start() throws InterruptedException {
        return new LocalStack(config, settings, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).start();
    }
}
