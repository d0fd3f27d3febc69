package io.sluice.cli;

import java.time.Duration;
import java.util.List;

import io.sluice.config.Setting;
import io.sluice.config.Settings;

/**
 * How long a command of the command line waits for each answer from Kafka before it fails,
 * naming the bootstrap servers: an operator in an incident gets a prompt error, not a minute's
 * silence. Servers keep Kafka's own timeouts and retry.
 */
public final class CliKafkaTimeout {
    static final Setting SETTING = new Setting("SLUICE_CLI_KAFKA_TIMEOUT", "15s",
            "How long `./sluice projects`, `./sluice replay` and `./sluice dead-letters` wait for each answer from Kafka before they fail "
                    + "(exit code 1, naming the bootstrap servers): with Kafka unreachable they fail after about this long.");
    static final List<Setting> SETTINGS = List.of(SETTING);

    private static final Duration SHORTEST = Duration.ofSeconds(1);

    private CliKafkaTimeout() {
    }

    /** @throws IllegalArgumentException when the setting is not a duration of at least 1 s */
    public static Duration from(Settings settings) {
        Duration timeout = settings.getDuration(SETTING);
        if (timeout.compareTo(SHORTEST) < 0) {
            throw new IllegalArgumentException(SETTING.name() + "=" + settings.get(SETTING) + " is shorter than 1s: "
                    + "Kafka is given at least a second to answer");
        }
        return timeout;
    }
}
