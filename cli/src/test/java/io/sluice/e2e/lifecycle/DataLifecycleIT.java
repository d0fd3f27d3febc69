package io.sluice.e2e.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
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
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * Deleting stored data through the real engines: the command removes the rows, and neither the
 * live pipeline nor a replay of what Kafka still holds brings them back.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DataLifecycleIT {
    @TempDir
    static Path stateDir;
    static TestPipeline pipeline;

    @BeforeAll
    static void start(Engines engines) throws Exception {
        pipeline = TestPipeline.named("lifecycle", engines, stateDir).start();
    }

    @AfterAll
    static void stop() {
        if (pipeline != null) {
            pipeline.close();
        }
    }

    @Test
    void aDeletedUserStaysDeletedThroughLiveEventsAndAReplayOfEverything() {
        ProjectAdmin.NewProject shop = pipeline.newProject("shop");
        ProjectAdmin.NewProject blog = pipeline.newProject("blog");
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        for (int i = 0; i < 3; i++) {
            send(shop, "alice", now.minusSeconds(60 + i));
            send(shop, "bob", now.minusSeconds(60 + i));
            send(blog, "alice", now.minusSeconds(60 + i));
        }
        String rows = "SELECT project, user_id, count() FROM " + pipeline.database() + ".%s FINAL GROUP BY project, user_id "
                + "ORDER BY project = '" + shop.token() + "' DESC, user_id";
        String all = shop.token() + "\talice\t3\n" + shop.token() + "\tbob\t3\n" + blog.token() + "\talice\t3";
        pipeline.awaitAnswer(all, rows.formatted("transactions"));
        pipeline.awaitAnswer(all, rows.formatted("errors"));

        CliRunner.Result deleted = CliRunner.run(pipeline.settings(), "projects", "delete-user", shop.token(), "--user", "alice",
                "--json", "--by", "dpo@example.com");

        assertEquals(0, deleted.exitCode(), deleted.err());
        assertEquals("{\"project\":\"" + shop.token() + "\",\"deleted\":\"user alice\",\"by\":\"dpo@example.com\",\"rows_removed\":{\""
                + pipeline.database() + ".transactions\":3,\"" + pipeline.database() + ".errors\":3}}", deleted.out().strip());
        String kept = shop.token() + "\tbob\t3\n" + blog.token() + "\talice\t3";
        assertEquals(kept, pipeline.query(rows.formatted("transactions")), "right after the command");
        assertEquals(kept, pipeline.query(rows.formatted("errors")), "right after the command");

        // Live: the deleted user's new event is dropped, the others' are stored.
        send(shop, "alice", now.minusSeconds(30));
        send(shop, "bob", now.minusSeconds(30));
        String keptAndNew = shop.token() + "\tbob\t4\n" + blog.token() + "\talice\t3";
        pipeline.awaitAnswer(keptAndNew, rows.formatted("transactions"));
        pipeline.awaitAnswer(keptAndNew, rows.formatted("errors"));

        CliRunner.Result replayed = CliRunner.run(pipeline.settings(), "replay", "--from", now.minusSeconds(3600).toString(),
                "--what", "all");

        assertEquals(0, replayed.exitCode(), replayed.err());
        assertEquals(keptAndNew, pipeline.query(rows.formatted("transactions")), "after replaying everything");
        assertEquals(keptAndNew, pipeline.query(rows.formatted("errors")), "after replaying everything");
    }

    @Test
    void aDeletedProjectIsRefusedAtOnceAndStaysDeletedThroughAReplayOfEverything() {
        ProjectAdmin.NewProject kept = pipeline.newProject("kept");
        ProjectAdmin.NewProject gone = pipeline.newProject("gone");
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        for (int i = 0; i < 4; i++) {
            send(kept, "carol", now.minusSeconds(60 + i));
            send(gone, "dave", now.minusSeconds(60 + i));
        }
        String projects = "project IN ('" + kept.token() + "', '" + gone.token() + "')";
        String perTable = "SELECT * FROM (SELECT 'transactions' AS t, project, count() AS n FROM " + pipeline.database() + ".transactions FINAL WHERE " + projects
                + " GROUP BY project UNION ALL SELECT 'errors', project, count() FROM " + pipeline.database() + ".errors FINAL WHERE "
                + projects + " GROUP BY project UNION ALL SELECT 'traffic_1m', project, sum(requests) FROM " + pipeline.database()
                + ".traffic_1m FINAL WHERE " + projects + " GROUP BY project UNION ALL SELECT 'errors_1h', project, sum(errors) FROM "
                + pipeline.database() + ".errors_1h FINAL WHERE " + projects + " GROUP BY project UNION ALL SELECT 'outcomes_1m', project, "
                + "sum(events) FROM " + pipeline.database() + ".outcomes_1m FINAL WHERE " + projects + " AND outcome = 'accepted' GROUP BY project"
                + ") ORDER BY t, project = '" + kept.token() + "' DESC";
        String both = "errors\t" + kept.token() + "\t4\nerrors\t" + gone.token() + "\t4\nerrors_1h\t" + kept.token() + "\t4\nerrors_1h\t"
                + gone.token() + "\t4\noutcomes_1m\t" + kept.token() + "\t8\noutcomes_1m\t" + gone.token() + "\t8\ntraffic_1m\t"
                + kept.token() + "\t4\ntraffic_1m\t" + gone.token() + "\t4\ntransactions\t" + kept.token() + "\t4\ntransactions\t"
                + gone.token() + "\t4";
        pipeline.awaitAnswer(both, perTable);

        CliRunner.Result deleted = CliRunner.run(pipeline.settings(), "projects", "delete", gone.token(), "--by", "ops");

        assertEquals(0, deleted.exitCode(), deleted.err());
        assertEquals(403, pipeline.post(gone, "transaction", "{\"transaction\": \"GET /late\"}").statusCode(), "its key, right after");
        String keptOnly = "errors\t" + kept.token() + "\t4\nerrors_1h\t" + kept.token() + "\t4\noutcomes_1m\t" + kept.token()
                + "\t8\ntraffic_1m\t" + kept.token() + "\t4\ntransactions\t" + kept.token() + "\t4";
        assertEquals(keptOnly, pipeline.query(perTable), "right after the command");

        CliRunner.Result replayed = CliRunner.run(pipeline.settings(), "replay", "--from", now.minusSeconds(3600).toString(),
                "--what", "all");

        assertEquals(0, replayed.exitCode(), replayed.err());
        assertEquals(keptOnly, pipeline.query(perTable), "after replaying everything");
        CliRunner.Result enabled = CliRunner.run(pipeline.settings(), "projects", "enable", gone.token());
        assertEquals(1, enabled.exitCode(), "enabling it again: " + enabled.out());
    }

    @Test
    void setRetentionGivesTheStoredRowsTheirProjectsDaysAndRefusesMoreThanTheGlobal() {
        ProjectAdmin.NewProject weekly = pipeline.newProject("weekly");
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        send(weekly, "erin", now.minusSeconds(60));
        String retention = "SELECT 'transactions' AS t, retention_days, count() FROM " + pipeline.database() + ".transactions FINAL WHERE "
                + "project = '" + weekly.token() + "' GROUP BY retention_days UNION ALL SELECT 'traffic_1m', retention_days, sum(requests) FROM "
                + pipeline.database() + ".traffic_1m FINAL WHERE project = '" + weekly.token() + "' GROUP BY retention_days";
        pipeline.awaitAnswer("traffic_1m\t90\t1\ntransactions\t90\t1", "SELECT * FROM (" + retention + ") ORDER BY t");

        CliRunner.Result tooLong = CliRunner.run(pipeline.settings(), "projects", "set-retention", weekly.token(), "--days", "91");
        CliRunner.Result set = CliRunner.run(pipeline.settings(), "projects", "set-retention", weekly.token(), "--days", "7", "--json");

        assertEquals(2, tooLong.exitCode(), tooLong.err());
        assertEquals(0, set.exitCode(), set.err());
        assertEquals("traffic_1m\t7\t1\ntransactions\t7\t1", pipeline.query("SELECT * FROM (" + retention + ") ORDER BY t"));
        send(weekly, "erin", now.minusSeconds(30));
        pipeline.awaitAnswer("traffic_1m\t7\t2\ntransactions\t7\t2", "SELECT * FROM (" + retention + ") ORDER BY t");
    }

    private static void send(ProjectAdmin.NewProject project, String user, Instant time) {
        String common = "\"event_id\": \"" + UUID.randomUUID().toString().replace("-", "") + "\", \"timestamp\": \"" + time
                + "\", \"environment\": \"production\", \"user\": {\"id\": \"" + user + "\"}";
        assertEquals(200, pipeline.post(project, "transaction", "{" + common + ", \"transaction\": \"GET /items\"}").statusCode());
        assertEquals(200, pipeline.post(project, "project", "{" + common
                + ", \"exception\": {\"values\": [{\"type\": \"KeyError\", \"value\": \"user " + user + "\"}]}}").statusCode());
    }
}
