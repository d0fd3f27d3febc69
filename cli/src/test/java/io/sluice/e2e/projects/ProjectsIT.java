package io.sluice.e2e.projects;

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

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
import io.sluice.e2e.TestPipeline;
import io.sluice.gateway.Gateway;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** Projects and keys as operators run them: through ./sluice projects, against a running gateway. */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ProjectsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** How long a test waits for a registry change to reach the gateway's follower: generous, for a busy machine. */
    private static final Duration IN_FORCE = Duration.ofSeconds(30);
    /** A loose bound on the measured time to be in force (docs/sending-events.md, Projects and keys): fails a follower that stalls. */
    private static final Duration IN_FORCE_BOUND = Duration.ofSeconds(10);
    private static final String TRANSACTION = "{\"transaction\": \"GET /\", \"tags\": {\"http.status_code\": 200}}";

    @TempDir
    static Path stateDir;

    static Engines engines;
    static TestPipeline pipeline;
    static Settings settings;

    @BeforeAll
    static void start(Engines realEngines) throws Exception {
        engines = realEngines;
        pipeline = TestPipeline.named("projects_it", engines, stateDir)
                .with("SLUICE_GATEWAY_OUTCOMES_INTERVAL", "500ms").with("SLUICE_TOPIC_PARTITIONS", "2").start();
        settings = pipeline.settings();
    }

    @AfterAll
    static void stop() {
        pipeline.close();
    }

    @Test
    void aCreatedProjectsKeyWorksAtOnce() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "fresh", "--json");
        assertEquals(200, inForce("the new key", 200, () -> send(project, TRANSACTION).statusCode()));
    }

    /** docker compose's first project: `eval "$(… projects create --name demo --export)"` sets what the README's curl uses. */
    @Test
    void createWithExportPrintsOneShellLineWhoseKeyWorksAtOnce() throws Exception {
        String out = cli("projects", "create", "--name", "exported", "--export");
        java.util.regex.Matcher line = java.util.regex.Pattern.compile("export TOKEN=([A-Za-z0-9_-]+) KEY=(slk_[A-Za-z0-9_-]+)\n").matcher(out);
        assertTrue(line.matches(), out);
        JsonNode project = JSON.createObjectNode().put("token", line.group(1)).put("key", line.group(2));
        assertEquals(200, inForce("the exported key", 200, () -> send(project, TRANSACTION).statusCode()));
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
        JsonNode rotated = cliJson("projects", "rotate-key", project.get("token").asText(), "--grace", "15s", "--json");
        JsonNode withNewKey = JSON.createObjectNode().put("token", project.get("token").asText()).put("key", rotated.get("key").asText());

        // The grace outlasts the bound on reaching the follower, so the old key is still good once the new one is.
        assertEquals(200, inForce("the rotated key", 200, () -> send(withNewKey, TRANSACTION).statusCode()));
        assertEquals(200, send(project, TRANSACTION).statusCode(), "the old key works during the grace period");
        assertEquals(401, Await.until(IN_FORCE, 401, () -> send(project, TRANSACTION).statusCode()),
                "the old key fails once the grace has passed");
        assertEquals(200, send(withNewKey, TRANSACTION).statusCode());
    }

    @Test
    void aRevokedKeyIsRefusedPromptly() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "revoked", "--json");
        Await.until(IN_FORCE, 200, () -> send(project, TRANSACTION).statusCode());
        String keyId = JSON.readTree(cli("projects", "show", project.get("token").asText(), "--json")).get("keys").get(0).get("id").asText();
        cli("projects", "revoke-key", project.get("token").asText(), keyId);
        assertEquals(401, inForce("the revocation", 401, () -> send(project, TRANSACTION).statusCode()));
    }

    @Test
    void aDisabledProjectGets403PromptlyAndEnablingRestoresIt() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "paused", "--json");
        Await.until(IN_FORCE, 200, () -> send(project, TRANSACTION).statusCode());
        cli("projects", "disable", project.get("token").asText());
        assertEquals(403, inForce("disabling", 403, () -> send(project, TRANSACTION).statusCode()));
        cli("projects", "enable", project.get("token").asText());
        assertEquals(200, inForce("enabling", 200, () -> send(project, TRANSACTION).statusCode()));
    }

    @Test
    void aQuotaGives429AfterTheBurstAndRecovers() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "limited", "--rate", "2", "--burst", "3", "--json");
        // Until the gateway knows the project it answers 401, which takes nothing from the quota.
        AtomicLong sent = new AtomicLong();
        assertEquals(200, Await.until(IN_FORCE, 200, () -> {
            sent.set(System.nanoTime());
            return send(project, TRANSACTION).statusCode();
        }));
        // That took one event (2 left, refilling since it was sent); the rest is drained without Kafka round trips
        // (slow acknowledgements of real transactions let a 2/s bucket refill as fast as they drain it).
        HttpResponse<String> refused = untilRefused(pipeline.port(), project, "transaction", 2, 2, sent.get()).refused();
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
        assertEquals(List.of(200, 200, 200, 200, 200, 200, 200, 200, 200, 200), statuses(pipeline.port(), project, 10),
                "no quota yet");

        cli("projects", "set-quota", token, "--rate", "1", "--burst", "2");
        // Unusable bodies ("[]": 400 once admitted) take from the quota at the head and wait for no Kafka
        // acknowledgement, so they drain the bucket (one every poll, 10 a second) faster than 1/s refills it.
        AtomicReference<HttpResponse<String>> last = new AtomicReference<>();
        assertEquals(429, Await.until(IN_FORCE, 429, () -> {
            last.set(send(project, "[]"));
            return last.get().statusCode();
        }));
        HttpResponse<String> refused = last.get();
        assertEquals("1", refused.headers().firstValue("Retry-After").orElse(""));
        JsonNode body = JSON.readTree(refused.body());
        assertEquals("quota_exceeded", body.get("error").asText());
        assertEquals("1/s burst 2", body.get("limit").asText());

        cli("projects", "set-quota", token, "--rate", "1000", "--burst", "1000");
        // 20 admitted in a row (400: admitted, then refused for the body, without a Kafka round trip): the lowered
        // quota (1/s, burst 2) could never allow that unless 18 s passed between them.
        assertEquals(true, Await.until(IN_FORCE, true,
                () -> quotaStatuses(pipeline.port(), project, "transaction", 20).stream().allMatch(status -> status == 400)));
        assertEquals(200, send(project, TRANSACTION).statusCode(), "a transaction is accepted again");
    }

    @Test
    void endpointQuotasAreIndependentOfEachOther() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "per-endpoint", "--json");
        String token = project.get("token").asText();
        cli("projects", "set-quota", token, "--rate", "1", "--burst", "2", "--endpoint", "transaction");
        cli("projects", "set-quota", token, "--rate", "1", "--burst", "3", "--endpoint", "project");
        // Started after the quotas are set: it reads the whole registry before it serves, no probe takes from them.
        try (Gateway fresh = pipeline.startGateway(Map.of())) {
            HttpResponse<String> refused = untilRefused(fresh.port(), project, "transaction", 1, 2).refused();
            untilRefused(fresh.port(), project, "project", 1, 3); // the used-up transaction quota took nothing from it
            JsonNode body = JSON.readTree(refused.body());
            assertEquals("1/s burst 2", body.get("limit").asText());
            assertTrue(body.get("message").asText().startsWith("this project's transaction endpoint quota"), refused.body());
        }
    }

    @Test
    void eachGatewayAllowsItsQuotaShareOfTheProjectsQuota() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "shared-quota", "--rate", "1", "--burst", "4", "--json");
        // One gateway at a time: gateways asked for the same project at once split its quota by demand.
        try (Gateway whole = pipeline.startGateway(Map.of())) {
            untilRefused(whole.port(), project, "transaction", 1, 4); // share 1.0, asked alone: the whole quota
        }
        try (Gateway half = pipeline.startGateway(Map.of("SLUICE_GATEWAY_QUOTA_SHARE", "0.5"))) {
            HttpResponse<String> refused = untilRefused(half.port(), project, "transaction", 0.5, 2).refused(); // half of burst 4
            assertEquals("1/s burst 4", JSON.readTree(refused.body()).get("limit").asText(), "the quota as the project has it");
            // Half of 1/s: one event every 2 s. A refusal within half a second of the bucket running dry says 2
            // (a slower one may say 1), so ask again at once until one does; at 1/s it would always say 1.
            assertEquals("2", Await.until(IN_FORCE, "2", () -> send(half.port(), project, "transaction", "[]").headers()
                    .firstValue("Retry-After").orElse("")), "half of 1/s: one event every 2 s");
        }
    }

    @Test
    void everyRefusalIsCountedPerProjectAndReasonInClickHouse() throws Exception {
        JsonNode project = cliJson("projects", "create", "--name", "counted", "--rate", "1", "--burst", "3", "--json");
        // Nothing is sent before the gateway has the project: a 401 answered just before it did may be counted
        // under the project (its outcome is recorded once the registry has it) or under no project.
        pipeline.gatewayRegistry().awaitKnown(project.get("token").asText());
        // Every authenticated request takes from the quota, this invalid one too.
        assertEquals(400, send(project, "[]").statusCode());
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
        try (Gateway fresh = pipeline.startGateway(Map.of())) {
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
        assertTrue(result.err().equals("sluice: --rate and --burst are whole numbers of events (./sluice projects set-quota --help shows its options)\n"), result.err());
    }

    @Test
    void aMisspelledOptionExits2NamingItAndCreatesNothing() throws Exception {
        CliRunner.Result result = CliRunner.run(settings, "projects", "create", "--name", "typo", "--rte", "5");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().startsWith("sluice: unknown option '--rte' for projects create; did you mean --rate?"), result.err());
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
        return send(pipeline.port(), project, body);
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

    /**
     * Sends unusable bodies ({@code []}, 400 once admitted) until one is refused with 429 and asserts how
     * many were admitted: the burst, plus at most what refilled at {@code rate} while they were sent (a slow
     * machine may take over a second for a few requests; the existing bucket refills meanwhile).
     */
    private static Drained untilRefused(int port, JsonNode project, String endpoint, double rate, int burst) {
        return untilRefused(port, project, endpoint, rate, burst, System.nanoTime());
    }

    /** As above, for a bucket that held {@code burst} events at {@code start} (and has refilled since). */
    private static Drained untilRefused(int port, JsonNode project, String endpoint, double rate, int burst, long start) {
        int admitted = 0;
        for (int i = 0; i < 50; i++) {
            HttpResponse<String> response = send(port, project, endpoint, "[]");
            if (response.statusCode() == 400) {
                admitted++;
                continue;
            }
            assertEquals(429, response.statusCode(), response.body());
            double seconds = (System.nanoTime() - start) / 1e9;
            int refilled = (int) Math.ceil(rate * seconds);
            assertTrue(admitted >= burst && admitted <= burst + refilled, endpoint + ": the burst of " + burst
                    + " plus what refilled at " + rate + "/s in " + seconds + " s, got " + admitted);
            return new Drained(admitted, response);
        }
        throw new AssertionError(endpoint + ": 50 requests admitted, none refused");
    }

    private record Drained(int admitted, HttpResponse<String> refused) {
    }

    /**
     * Waits (generously) for a registry change to be in force on the gateway, prints how long it took and
     * asserts a loose bound on it: a follower that stalls for many seconds fails, a busy machine does not.
     */
    private static int inForce(String change, int expected, Supplier<Integer> status) {
        long start = System.nanoTime();
        int reached = Await.until(change + " in force", IN_FORCE, expected, status);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        System.out.println(change + " in force on the gateway after " + took.toMillis() + " ms");
        assertTrue(took.compareTo(IN_FORCE_BOUND) <= 0, change + " took " + took.toMillis() + " ms to be in force");
        return reached;
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
