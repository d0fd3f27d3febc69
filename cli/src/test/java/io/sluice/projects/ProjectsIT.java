package io.sluice.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.cli.CliRunner;
import io.sluice.config.Settings;
import io.sluice.gateway.Gateway;
import io.sluice.gateway.GatewayConfig;
import io.sluice.processor.Processor;
import io.sluice.processor.ProcessorConfig;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.IsolatedSettings;
import io.sluice.testkit.RealEngines;

/** Projects and keys as operators run them: through ./sluice projects, against a running gateway. */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ProjectsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration IN_FORCE = Duration.ofSeconds(2);
    private static final String TRANSACTION = "{\"transaction\": \"GET /\", \"tags\": {\"http.status_code\": 200}}";

    @TempDir
    static Path stateDir;

    static Engines engines;
    static Map<String, String> values;
    static Settings settings;
    static Gateway gateway;
    static Processor processor;

    @BeforeAll
    static void start(Engines realEngines) throws Exception {
        engines = realEngines;
        values = IsolatedSettings.of("projects_it", engines, stateDir);
        values.put("SLUICE_GATEWAY_OUTCOMES_INTERVAL", "500ms");
        values.put("SLUICE_TOPIC_PARTITIONS", "2");
        settings = new Settings(values);
        gateway = Gateway.start(GatewayConfig.from(settings));
        processor = Processor.start(ProcessorConfig.from(settings));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        processor.close();
    }

    @Test
    void aCreatedProjectsKeyWorksAtOnce() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "fresh", "--json");
        long start = System.nanoTime();
        int status = Await.until(IN_FORCE, 200, () -> send(project, TRANSACTION).statusCode());
        assertEquals(200, status);
        assertTrue(System.nanoTime() - start < IN_FORCE.toNanos());
    }

    @Test
    void listAndShowNeverPrintAKeyOrItsHash() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "listed", "--json");
        String key = project.get("key").asText();
        String list = cli("projects", "list", "--json");
        String show = cli("projects", "show", project.get("token").asText(), "--json");
        String table = cli("projects", "list");
        for (String output : new String[] {list, show, table}) {
            assertFalse(output.contains(key) || output.contains(key.substring(4, 20)), output);
            assertFalse(output.contains("sha256"), output);
        }
        assertTrue(list.contains("\"name\":\"listed\""), list);
        assertEquals(1, JSON.readTree(show).get("keys").size());
    }

    @Test
    void aRotatedKeyWorksAndTheOldOneWorksUntilTheGraceEnds() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "rotated", "--json");
        Await.until(IN_FORCE, 200, () -> send(project, TRANSACTION).statusCode());
        JsonNode rotated = cliJson("projects", "rotate-key", project.get("token").asText(), "--grace", "3s", "--json");
        JsonNode withNewKey = JSON.createObjectNode().put("token", project.get("token").asText()).put("key", rotated.get("key").asText());

        assertEquals(200, Await.until(IN_FORCE, 200, () -> send(withNewKey, TRANSACTION).statusCode()));
        assertEquals(200, send(project, TRANSACTION).statusCode(), "the old key works during the grace period");
        assertEquals(401, Await.until(Duration.ofSeconds(6), 401, () -> send(project, TRANSACTION).statusCode()),
                "the old key fails once the grace has passed");
        assertEquals(200, send(withNewKey, TRANSACTION).statusCode());
    }

    @Test
    void aRevokedKeyIsRefusedWithinTwoSeconds() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "revoked", "--json");
        Await.until(IN_FORCE, 200, () -> send(project, TRANSACTION).statusCode());
        String keyId = JSON.readTree(cli("projects", "show", project.get("token").asText(), "--json")).get("keys").get(0).get("id").asText();
        cli("projects", "revoke-key", project.get("token").asText(), keyId);
        assertEquals(401, Await.until(IN_FORCE, 401, () -> send(project, TRANSACTION).statusCode()));
    }

    @Test
    void aDisabledProjectGets403WithinTwoSecondsAndEnablingRestoresIt() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "paused", "--json");
        Await.until(IN_FORCE, 200, () -> send(project, TRANSACTION).statusCode());
        cli("projects", "disable", project.get("token").asText());
        assertEquals(403, Await.until(IN_FORCE, 403, () -> send(project, TRANSACTION).statusCode()));
        cli("projects", "enable", project.get("token").asText());
        assertEquals(200, Await.until(IN_FORCE, 200, () -> send(project, TRANSACTION).statusCode()));
    }

    @Test
    void aQuotaGives429AfterTheBurstAndRecovers() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "limited", "--rate", "2", "--burst", "3", "--json");
        // Until the gateway knows the project it answers 401, which takes nothing from the quota.
        assertEquals(200, Await.until(IN_FORCE, 200, () -> send(project, TRANSACTION).statusCode()));
        int accepted = 1;
        long start = System.nanoTime();
        HttpResponse<String> refused = null;
        for (int i = 0; i < 50 && refused == null; i++) {
            HttpResponse<String> response = send(project, TRANSACTION);
            if (response.statusCode() == 200) {
                accepted++;
            } else {
                refused = response;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        int refilled = (int) Math.ceil(2 * seconds); // 2 events a second refill while the test sends
        assertTrue(accepted >= 3 && accepted <= 3 + refilled + 1,
                "the burst of 3 plus what refilled in " + seconds + " s, got " + accepted);
        assertEquals(429, refused.statusCode(), refused.body());
        assertEquals("1", refused.headers().firstValue("Retry-After").orElse(""));
        JsonNode body = JSON.readTree(refused.body());
        assertEquals("quota_exceeded", body.get("error").asText());
        assertEquals("2/s burst 3", body.get("limit").asText());
        Thread.sleep(1_100);
        assertEquals(200, send(project, TRANSACTION).statusCode(), "recovers as the bucket refills");
    }

    @Test
    void setQuotaTakesEffectOnARunningGatewayAndRaisingItAdmitsAgain() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "requoted", "--json");
        String token = project.get("token").asText();
        assertEquals(200, Await.until(IN_FORCE, 200, () -> send(project, TRANSACTION).statusCode()));
        assertEquals(List.of(200, 200, 200, 200, 200, 200, 200, 200, 200, 200), statuses(gateway.port(), project, 10),
                "no quota yet");

        cli("projects", "set-quota", token, "--rate", "1", "--burst", "2");
        AtomicReference<HttpResponse<String>> last = new AtomicReference<>();
        assertEquals(429, Await.until(IN_FORCE, 429, () -> {
            last.set(send(project, TRANSACTION));
            return last.get().statusCode();
        }));
        HttpResponse<String> refused = last.get();
        assertEquals("1", refused.headers().firstValue("Retry-After").orElse(""));
        JsonNode body = JSON.readTree(refused.body());
        assertEquals("quota_exceeded", body.get("error").asText());
        assertEquals("1/s burst 2", body.get("limit").asText());

        cli("projects", "set-quota", token, "--rate", "1000", "--burst", "1000");
        // 20 accepted in a row: the lowered quota (1/s, burst 2) could never allow that, whatever refilled.
        assertEquals(true, Await.until(IN_FORCE, true,
                () -> statuses(gateway.port(), project, 20).stream().allMatch(status -> status == 200)));
    }

    @Test
    void endpointQuotasAreIndependentOfEachOther() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "per-endpoint", "--json");
        String token = project.get("token").asText();
        cli("projects", "set-quota", token, "--rate", "1", "--burst", "2", "--endpoint", "transaction");
        cli("projects", "set-quota", token, "--rate", "1", "--burst", "3", "--endpoint", "project");
        // Started after the quotas are set: it reads the whole registry before it serves, no probe takes from them.
        try (Gateway fresh = Gateway.start(GatewayConfig.from(settings))) {
            assertEquals(List.of(400, 400, 429), quotaStatuses(fresh.port(), project, "transaction", 3));
            assertEquals(List.of(400, 400, 400, 429), quotaStatuses(fresh.port(), project, "project", 4),
                    "the used-up transaction quota takes nothing from the project endpoint's");
            HttpResponse<String> refused = send(fresh.port(), project, "transaction", "[]");
            assertEquals(429, refused.statusCode());
            JsonNode body = JSON.readTree(refused.body());
            assertEquals("1/s burst 2", body.get("limit").asText());
            assertTrue(body.get("message").asText().startsWith("this project's transaction endpoint quota"), refused.body());
        }
    }

    @Test
    void eachGatewayAllowsItsQuotaShareOfTheProjectsQuota() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "shared-quota", "--rate", "1", "--burst", "4", "--json");
        Map<String, String> halfShare = new HashMap<>(values);
        halfShare.put("SLUICE_GATEWAY_QUOTA_SHARE", "0.5");
        try (Gateway whole = Gateway.start(GatewayConfig.from(settings));
             Gateway half = Gateway.start(GatewayConfig.from(new Settings(halfShare)))) {
            assertEquals(List.of(400, 400, 429), quotaStatuses(half.port(), project, "transaction", 3), "half of burst 4");
            HttpResponse<String> refused = send(half.port(), project, "transaction", "[]");
            assertEquals("2", refused.headers().firstValue("Retry-After").orElse(""), "half of 1/s: one event every 2 s");
            assertEquals("1/s burst 4", JSON.readTree(refused.body()).get("limit").asText(), "the quota as the project has it");
            assertEquals(List.of(400, 400, 400, 400, 429), quotaStatuses(whole.port(), project, "transaction", 5),
                    "a gateway with share 1.0 allows the whole quota, whatever the other allowed");
        }
    }

    @Test
    void everyRefusalIsCountedPerProjectAndReasonInClickHouse() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "counted", "--rate", "1", "--burst", "3", "--json");
        // Every authenticated request takes from the quota, this invalid one too.
        assertEquals(400, Await.until(IN_FORCE, 400, () -> send(project, "[]").statusCode()));
        JsonNode wrongKey = JSON.createObjectNode().put("token", project.get("token").asText()).put("key", "slk_wrong");
        for (int i = 0; i < 3; i++) {
            send(wrongKey, TRANSACTION);
        }
        int accepted = 0;
        int limited = 0;
        while (limited == 0 && accepted < 50) { // until the quota bites, counting what the client saw
            int status = send(project, TRANSACTION).statusCode();
            if (status == 200) {
                accepted++;
            } else {
                assertEquals(429, status);
                limited++;
            }
        }
        String expected = "accepted\t" + accepted + "\ninvalid_json\t1\nquota_exceeded\t1\nunauthorized\t3";
        assertEquals(expected, Await.until(Duration.ofSeconds(30), expected, () -> ClickHouseQuery.run(engines,
                "SELECT outcome, sum(events) FROM sluice_projects_it.outcomes_1m FINAL WHERE project = {project:String} "
                        + "GROUP BY outcome ORDER BY outcome", Map.of("project", project.get("token").asText()))));
    }

    @Test
    void aRestartedGatewayRebuildsTheRegistryFromTheTopic() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "survivor", "--json");
        try (Gateway fresh = Gateway.start(GatewayConfig.from(settings))) {
            assertEquals(200, send(fresh.port(), project, TRANSACTION).statusCode(), "known as soon as it is ready");
        }
    }

    @Test
    void anUnknownTokenIsAClearErrorWithExitCode1() {
        CliRunner.Result result = CliRunner.run(settings, "projects", "disable", "no-such-token");
        assertEquals(1, result.exitCode());
        assertEquals("sluice: no project has the token no-such-token\n", result.err());
    }

    @Test
    void badArgumentsExitWithCode2AndTheUsage() {
        CliRunner.Result result = CliRunner.run(settings, "projects", "set-quota", "some-token", "--rate", "many");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().startsWith("sluice: --rate and --burst are whole numbers of events\nusage:"), result.err());
    }

    @Test
    void aMisspelledOptionExits2NamingItAndCreatesNothing() throws Exception {
        CliRunner.Result result = CliRunner.run(settings, "projects", "create", "--name", "typo", "--rte", "5");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().startsWith("sluice: Unknown options: '--rte', '5'\nusage:"), result.err());
        assertEquals("", result.out());
        // A project created after it is listed; the mistyped one is not: the registry never saw it.
        cliJson("projects", "create", "--name", "after-typo", "--json");
        java.util.List<String> listed = new java.util.ArrayList<>();
        cliJson("projects", "list", "--json").forEach(project -> listed.add(project.get("name").asText()));
        assertTrue(listed.contains("after-typo"), listed.toString());
        assertFalse(listed.contains("typo"), listed.toString());
    }

    private static String cli(String... argv) {
        CliRunner.Result result = CliRunner.run(settings, argv);
        assertEquals(0, result.exitCode(), result.err());
        return result.out();
    }

    private static JsonNode cliJson(String... argv) throws Exception {
        return JSON.readTree(cli(argv));
    }

    private static HttpResponse<String> send(JsonNode project, String body) {
        return send(gateway.port(), project, body);
    }

    private static HttpResponse<String> send(int port, JsonNode project, String body) {
        return send(port, project, "transaction", body);
    }

    /**
     * The statuses of {@code count} requests whose body is unusable ({@code []}): each takes one event of the quota
     * from its head and gets 400 without waiting for Kafka, so how many fit does not depend on how fast Kafka
     * acknowledges (a quota of 1/s refills a whole event while a few slow acknowledgements are awaited).
     */
    private static List<Integer> quotaStatuses(int port, JsonNode project, String endpoint, int count) {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            statuses.add(send(port, project, endpoint, "[]").statusCode());
        }
        return statuses;
    }

    /** The statuses of {@code count} transactions sent one after another. */
    private static List<Integer> statuses(int port, JsonNode project, int count) {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            statuses.add(send(port, project, TRANSACTION).statusCode());
        }
        return statuses;
    }

    private static HttpResponse<String> send(int port, JsonNode project, String endpoint, String body) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/"
                            + project.get("token").asText() + "/" + endpoint))
                    .header("Authorization", "Bearer " + project.get("key").asText())
                    .header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
