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

    /** Each server's health check asks its admin port's /readyz: healthy on 200, unhealthy on 503 (run here against a stand-in). */
    @Test
    void eachServersHealthCheckIsItsReadiness() throws Exception {
        for (var server : java.util.Map.of("gateway", GatewayConfig.ADMIN_PORT.defaultValue(),
                "processor", io.sluice.processor.ProcessorConfig.ADMIN_PORT.defaultValue()).entrySet()) {
            JsonNode test = compose.at("/services/" + server.getKey() + "/healthcheck/test");
            assertEquals(List.of("CMD", "bash", "-c"), List.of(test.get(0).asText(), test.get(1).asText(), test.get(2).asText()));
            String script = test.get(3).asText();
            assertTrue(script.contains("/dev/tcp/127.0.0.1/" + server.getValue() + " "), server.getKey() + ": " + script);
            assertEquals(0, runAgainstReadiness(script, server.getValue(), 200), server.getKey() + " healthy when ready");
            assertTrue(runAgainstReadiness(script, server.getValue(), 503) != 0, server.getKey() + " unhealthy when not ready");
        }
    }

    private static int runAgainstReadiness(String script, String port, int status) throws Exception {
        com.sun.net.httpserver.HttpServer readiness = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        readiness.createContext("/readyz", exchange -> {
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        readiness.start();
        try {
            String here = script.replace("/dev/tcp/127.0.0.1/" + port + " ", "/dev/tcp/127.0.0.1/" + readiness.getAddress().getPort() + " ");
            Process check = new ProcessBuilder("bash", "-c", here).redirectErrorStream(true).start();
            assertTrue(check.waitFor(10, java.util.concurrent.TimeUnit.SECONDS), "the check ends");
            return check.exitValue();
        } finally {
            readiness.stop(0);
        }
    }

    @Test
    void theProcessorsStateIsOnANamedVolumeAtTheImagesVolume() {
        assertEquals("processor-state:/var/lib/sluice", compose.at("/services/processor/volumes/0").asText());
        assertTrue(compose.at("/volumes").has("processor-state"));
    }
}
