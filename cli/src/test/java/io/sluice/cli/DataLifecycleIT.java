package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

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
    static RunningPipeline pipeline;

    @BeforeAll
    static void start(Engines engines) throws Exception {
        pipeline = RunningPipeline.start("lifecycle", engines, stateDir, Map.of());
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

    private static void send(ProjectAdmin.NewProject project, String user, Instant time) {
        String common = "\"event_id\": \"" + UUID.randomUUID().toString().replace("-", "") + "\", \"timestamp\": \"" + time
                + "\", \"environment\": \"production\", \"user\": {\"id\": \"" + user + "\"}";
        assertEquals(200, pipeline.post(project, "transaction", "{" + common + ", \"transaction\": \"GET /items\"}").statusCode());
        assertEquals(200, pipeline.post(project, "project", "{" + common
                + ", \"exception\": {\"values\": [{\"type\": \"KeyError\", \"value\": \"user " + user + "\"}]}}").statusCode());
    }
}
