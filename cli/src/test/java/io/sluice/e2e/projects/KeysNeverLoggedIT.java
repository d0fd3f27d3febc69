package io.sluice.e2e.projects;

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

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.cli.CliRunner;
import io.sluice.config.Settings;
import io.sluice.engines.Ports;
import io.sluice.projects.Secrets;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** A gateway logging at DEBUG, put through every key path: its whole log holds no key, as text or as JSON. */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KeysNeverLoggedIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path workDir;

    @ParameterizedTest(name = "SLUICE_LOG_FORMAT={0}")
    @ValueSource(strings = {"text", "json"})
    void noKeyAppearsInTheGatewaysLogAtDebugLevel(String format, Engines engines) throws Exception {
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
        Map<String, String> gatewayEnv = new java.util.HashMap<>(env);
        gatewayEnv.putAll(Map.of("SLUICE_LOG_FORMAT", format, "SLUICE_LOG_LEVEL", "debug", "SLUICE_LOG_LEVELS", "org.apache.kafka=info"));
        Process gateway = startGateway(gatewayEnv, log);
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
            Await.until(Duration.ofSeconds(30), 200, () -> post(port, token, keys.get(0)));
            // blog was created after shop: until the gateway's follower has it, its key matches nothing (401).
            Await.until(Duration.ofSeconds(30), 200, () -> post(port, blog.get("token").asText(), keys.get(1)));
            assertEquals(403, post(port, token, keys.get(1)), "another project's key on this project's token");
            assertEquals(401, post(port, token, "slk_guessedButWrong"));
            CliRunner.Result rotated = CliRunner.run(settings, "projects", "rotate-key", token, "--grace", "0s", "--json");
            keys.add(JSON.readTree(rotated.out()).get("key").asText());
            assertEquals(401, Await.until(Duration.ofSeconds(30), 401, () -> post(port, token, keys.get(0))));
            assertEquals(200, Await.until(Duration.ofSeconds(30), 200, () -> post(port, token, keys.get(2))));
            cliOutput = CliRunner.run(settings, "projects", "show", token).out() + CliRunner.run(settings, "projects", "list").out();
        } finally {
            gateway.destroy(); // SIGTERM: the shutdown path logs too
            gateway.waitFor(30, TimeUnit.SECONDS);
        }

        String logged = Files.readString(log);
        // The log really is at DEBUG (a log at INFO would hide what DEBUG might leak): DEBUG lines were
        // written, among them the gateway's own and its HTTP stack's.
        List<LogLine> lines = logged.lines().map(line -> LogLine.parse(format, line)).filter(java.util.Objects::nonNull).toList();
        List<LogLine> debug = lines.stream().filter(line -> line.level().equals("DEBUG")).toList();
        System.out.println("gateway log (" + format + "): " + logged.lines().count() + " lines, " + lines.size() + " log events, "
                + debug.size() + " at DEBUG");
        assertTrue(debug.stream().anyMatch(line -> line.logger().startsWith("io.netty.")), "DEBUG lines of Netty: " + debug.size());
        assertTrue(lines.stream().anyMatch(line -> line.message().contains("gateway stopped")), "the log covers the shutdown");
        for (String key : keys) {
            String secretPart = key.substring(Secrets.KEY_PREFIX.length());
            assertFalse(logged.contains(secretPart), "a key is in the gateway's log");
            assertFalse(cliOutput.contains(secretPart), "a key is in list/show output");
        }
        assertFalse(logged.contains("slk_"), "nothing that looks like a key is logged");
    }

    /** One logged event, read back from a text line or a JSON line; null for other output (the JVM's own warnings). */
    record LogLine(String level, String logger, String message) {
        private static final java.util.regex.Pattern TEXT = java.util.regex.Pattern.compile("\\S+ \\[[^]]*] (\\w+) (\\S+) - (.*)");

        static LogLine parse(String format, String line) {
            if (format.equals("json")) {
                if (!line.startsWith("{")) {
                    return null;
                }
                try {
                    JsonNode event = JSON.readTree(line); // every JSON line is one whole object
                    return new LogLine(event.get("level").asText(), event.get("loggerName").asText(),
                            event.get("formattedMessage").asText());
                } catch (java.io.IOException e) {
                    throw new AssertionError("not one JSON object: " + line, e);
                }
            }
            java.util.regex.Matcher text = TEXT.matcher(line);
            return text.matches() ? new LogLine(text.group(1), text.group(2), text.group(3)) : null;
        }
    }

    private static Process startGateway(Map<String, String> env, Path log) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"), "io.sluice.cli.SluiceCli", "gateway");
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
