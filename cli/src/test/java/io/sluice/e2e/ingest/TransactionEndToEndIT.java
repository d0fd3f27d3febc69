package io.sluice.e2e.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.cli.CliRunner;
import io.sluice.e2e.TestPipeline;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** The walking skeleton: HTTP POST → gateway → Kafka → Streams → ClickHouse, all real. */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class TransactionEndToEndIT {
    private static final Duration ARRIVAL = Duration.ofSeconds(30);

    @TempDir
    static Path stateDir;

    static Engines engines;
    static TestPipeline pipeline;
    static ProjectAdmin.NewProject project;
    /** The project send-test-event sends to: its test transaction must not add to {@link #project}'s counts. */
    static ProjectAdmin.NewProject testEventProject;
    /** The answer to the one transaction every test here looks for downstream. */
    static HttpResponse<String> response;

    @BeforeAll
    static void startPipeline(Engines realEngines) throws Exception {
        engines = realEngines;
        pipeline = TestPipeline.named("e2e", engines, stateDir).create();
        project = pipeline.createProject("e2e");
        testEventProject = pipeline.createProject("e2e-test-event");
        pipeline.start();
        String body = """
                {"event_id": "6f1e7f3c9a0b4d2e8c1f0a9b8c7d6e5f",
                 "transaction": "GET /users/42",
                 "sent_at": "2020-01-01T10:15:30.250+01:00",
                 "environment": "production",
                 "tags": {"http.status_code": "404"},
                 "sdk": {"name": "curl", "version": "8.5"},
                 "contexts": {"trace": {"data": {"url": "https://shop.example/users/42", "method": "GET"}},
                              "runtime": {"name": "CPython", "version": "3.12"}},
                 "user": {"id": "account-7"}}
                """;
        response = pipeline.post(project, "transaction", body);
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) {
            pipeline.close();
        }
    }

    @Test
    void aPostedTransactionBecomesOneHistoryRowAndOneCountInItsMinute() throws Exception {

        assertEquals(200, response.statusCode(), response.body());
        assertEquals("{\"id\":\"6f1e7f3c9a0b4d2e8c1f0a9b8c7d6e5f\"}", response.body());
        String historyRow = "6f1e7f3c9a0b4d2e8c1f0a9b8c7d6e5f\tGET /users/42\tGET\t/users/42\t404\taccount-7";
        assertEquals(historyRow, Await.until(ARRIVAL, historyRow, () -> ClickHouseQuery.run(engines,
                "SELECT event_id, transaction, method, path, status_code, user_id FROM sluice_e2e.transactions FINAL "
                        + "WHERE project = '" + project.token() + "'")));
        // sent_at is older than the 24 h horizon: the event is counted in the minute it was received.
        String counts = "1\t0\t0\t1\t0";
        assertEquals(counts, Await.until(ARRIVAL, counts, () -> ClickHouseQuery.run(engines,
                "SELECT sum(requests), sum(status_2xx), sum(status_3xx), sum(status_4xx), sum(status_5xx) "
                        + "FROM sluice_e2e.traffic_1m FINAL WHERE project = '" + project.token() + "'")));
    }

    @Test
    void everyExampleQueryOfTheDataModelRunsAndOneFindsThePostedRequest() throws Exception {
        // The request the queries must find has arrived.
        Await.until(ARRIVAL, "1", () -> ClickHouseQuery.run(engines, "SELECT count() FROM sluice_e2e.transactions FINAL "
                + "WHERE project = '" + project.token() + "' AND transaction = 'GET /users/42'"));
        String readme = java.nio.file.Files.readString(Path.of("..", "docs", "data-model.md"));
        java.util.regex.Matcher block = java.util.regex.Pattern.compile("```sql\n(.*?)```", java.util.regex.Pattern.DOTALL)
                .matcher(readme);
        List<String> queries = new ArrayList<>();
        while (block.find()) {
            // The examples read the demo data's huge tenant: here, the project the request was posted to.
            queries.add(block.group(1).replace("sluice.", "sluice_e2e.").replace("'demo-huge'", "'" + project.token() + "'"));
        }
        assertEquals(14, queries.size(), "docs/data-model.md's example queries, one set");
        queries.forEach(sql -> ClickHouseQuery.run(engines, sql));
        String perStatusCode = "404\t1";
        String requestsPerStatusCode = queries.stream().filter(sql -> sql.contains("GROUP BY status_code")).findFirst().orElseThrow();
        assertEquals(perStatusCode, Await.until(ARRIVAL, perStatusCode, () -> ClickHouseQuery.run(engines, requestsPerStatusCode).strip()),
                "example 2, requests per status code, finds the posted request");
    }

    @Test
    void sendTestEventGivesAPassVerdictAgainstARunningPipeline() {
        CliRunner.Result result = CliRunner.run(pipeline.settings(), "send-test-event",
                "--token", testEventProject.token(), "--key", testEventProject.key(), "--url", pipeline.url(""));
        assertEquals(0, result.exitCode(), result.out() + result.err());
        assertEquals(true, result.out().contains("PASS: events reach ClickHouse"), result.out());
    }

    @Test
    void sendTestEventWithAWrongKeyGivesAFailVerdict() {
        CliRunner.Result result = CliRunner.run(pipeline.settings(), "send-test-event",
                "--token", testEventProject.token(), "--key", "slk_wrong", "--url", pipeline.url(""));
        assertEquals(1, result.exitCode());
        assertEquals(true, result.out().contains("✗ 401") && result.out().contains("FAIL"), result.out());
    }

    @Test
    void statsShowTrafficTheStatusDistributionAndTheLastRequests() {
        Await.until(ARRIVAL, "1", () -> ClickHouseQuery.run(engines,
                "SELECT sum(status_4xx) FROM sluice_e2e.traffic_1m FINAL WHERE project = '" + project.token() + "'"));
        CliRunner.Result result = CliRunner.run(pipeline.settings(), "stats",
                "--project", project.token(), "--since", "2h");
        assertEquals(0, result.exitCode(), result.err());
        String shown = result.out();
        assertEquals(true, shown.contains("Requests per minute") && shown.contains("Last requests"), shown);
        assertEquals(true, shown.matches("(?s).*\\n  4xx  █+ *1 \\(.*"), shown);
        assertEquals(true, shown.contains("GET /users/42"), shown);
    }
}
