package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.sluice.config.Settings;
import io.sluice.engines.ChdbDistribution;
import io.sluice.gateway.GatewayConfig;

/** docker-compose.yml runs the versions the tests run, and lets the servers stop cleanly. */
class ComposeFileTest {
    private static JsonNode compose;

    @BeforeAll
    static void read() throws Exception {
        compose = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(Path.of("..", "docker-compose.yml")));
    }

    @Test
    void clickHouseIsTheVersionTheTestsRun() {
        String image = compose.at("/services/clickhouse/image").asText();
        // chdb's package version is ClickHouse's (26.7.3-stable.1 is ClickHouse 26.7); the image is tagged by major.minor.
        String tested = ChdbDistribution.NPM_PACKAGE.replaceAll(".*@(\\d+\\.\\d+)\\..*", "$1");
        assertEquals("clickhouse/clickhouse-server:" + tested, image);
        assertTrue(tested.startsWith("26."), tested);
    }

    @Test
    void kafkaIsTheVersionOfTheClients() {
        assertEquals("apache/kafka:" + AppInfoParser.getVersion(), compose.at("/services/kafka/image").asText());
    }

    @Test
    void theServersHaveTimeToDrainWhenStopped() {
        Duration grace = Settings.parseDuration(compose.at("/x-sluice/stop_grace_period").asText());
        Duration drain = Settings.parseDuration(GatewayConfig.SHUTDOWN_TIMEOUT.defaultValue());
        assertTrue(grace.compareTo(drain.plusSeconds(5)) >= 0, grace + " to stop, " + drain + " to drain");
        for (String server : List.of("gateway", "processor")) {
            // This YAML reader leaves merge keys unresolved: the alias' anchor name shows which block is merged.
            assertEquals("sluice", compose.at("/services/" + server + "/<<").asText(), server + " merges x-sluice");
        }
    }

    @Test
    void theProcessorsStateIsOnANamedVolumeAtTheImagesVolume() {
        assertEquals("processor-state:/var/lib/sluice", compose.at("/services/processor/volumes/0").asText());
        assertTrue(compose.at("/volumes").has("processor-state"));
    }
}
