package io.sluice.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.cli.CliRunner;
import io.sluice.config.Settings;
import io.sluice.engines.Ports;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** A gateway logging at DEBUG, put through every key path: its whole log holds no key. */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KeysNeverLoggedIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path workDir;

    @Test
    void noKeyAppearsInTheGatewaysLogAtDebugLevel(Engines engines) throws Exception {
        int port = Ports.free();
        int adminPort = Ports.free();
        Map<String, String> env = Map.of(
                "SLUICE_KAFKA_BOOTSTRAP_SERVERS", engines.kafkaBootstrapServers(),
                "SLUICE_TOPIC_PROJECTS", "keys-it.projects",
                "SLUICE_TOPIC_PARTITIONS", "1",
                "SLUICE_GATEWAY_PORT", Integer.toString(port),
                "SLUICE_GATEWAY_ADMIN_PORT", Integer.toString(adminPort));
        Settings settings = new Settings(env);
        Path log = workDir.resolve("gateway.log");
        Process gateway = startGateway(env, log);
        List<String> keys = new ArrayList<>();
        String cliOutput;
        try {
            Await.until(Duration.ofSeconds(60), 200, () -> status(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + adminPort + "/readyz")).build()));
            JsonNode shop = JSON.readTree(CliRunner.run(settings, "projects", "create", "--name", "shop", "--json").out());
            JsonNode blog = JSON.readTree(CliRunner.run(settings, "projects", "create", "--name", "blog", "--json").out());
            keys.add(shop.get("key").asText());
            keys.add(blog.get("key").asText());
            String token = shop.get("token").asText();
            Await.until(Duration.ofSeconds(5), 200, () -> post(port, token, keys.get(0)));
            assertEquals(403, post(port, token, keys.get(1)));
            assertEquals(401, post(port, token, "slk_guessedButWrong"));
            CliRunner.Result rotated = CliRunner.run(settings, "projects", "rotate-key", token, "--grace", "0s", "--json");
            keys.add(JSON.readTree(rotated.out()).get("key").asText());
            assertEquals(401, Await.until(Duration.ofSeconds(5), 401, () -> post(port, token, keys.get(0))));
            assertEquals(200, Await.until(Duration.ofSeconds(5), 200, () -> post(port, token, keys.get(2))));
            cliOutput = CliRunner.run(settings, "projects", "show", token).out() + CliRunner.run(settings, "projects", "list").out();
        } finally {
            gateway.destroy(); // SIGTERM: the shutdown path logs too
            gateway.waitFor(30, TimeUnit.SECONDS);
        }

        String logged = Files.readString(log);
        // The log really is at DEBUG (a log at INFO would hide what DEBUG might leak): DEBUG lines were
        // written, among them the gateway's own and its HTTP stack's.
        List<String> debug = logged.lines().filter(line -> line.contains(" DEBUG ")).toList();
        System.out.println("gateway log: " + logged.lines().count() + " lines, " + debug.size() + " at DEBUG");
        assertTrue(debug.stream().anyMatch(line -> line.contains(" DEBUG io.netty.")), "DEBUG lines of Netty: " + debug.size());
        assertTrue(logged.contains("gateway stopped"), "the log covers the shutdown");
        for (String key : keys) {
            String secretPart = key.substring(Secrets.KEY_PREFIX.length());
            assertFalse(logged.contains(secretPart), "a key is in the gateway's log");
            assertFalse(cliOutput.contains(secretPart), "a key is in list/show output");
        }
        assertFalse(logged.contains("slk_"), "nothing that looks like a key is logged");
    }

    private static Process startGateway(Map<String, String> env, Path log) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx256m",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=debug",
                "-Dorg.slf4j.simpleLogger.log.org.apache.kafka=info",
                "-cp", System.getProperty("java.class.path"), "io.sluice.cli.SluiceCli", "gateway");
        builder.environment().putAll(env);
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        return builder.start();
    }

    private static int post(int port, String token, String key) {
        return status(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/" + token + "/transaction"))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"transaction\": \"GET /\"}")).build());
    }

    private static int status(HttpRequest request) {
        try {
            return HTTP.send(HttpRequest.newBuilder(request, (name, value) -> true).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }
}
