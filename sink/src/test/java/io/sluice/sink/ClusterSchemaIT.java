package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.clickhouse.client.api.Client;

import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.engines.ChdbDistribution;
import io.sluice.engines.Ports;

/**
 * deploy/clickhouse/cluster.sql on a real two-shard ClickHouse cluster: two servers of the tests'
 * engine and a remote_servers configuration. Without Keeper (the engine has none) neither ON
 * CLUSTER nor Replicated tables can run, so each statement runs on each server with ON CLUSTER
 * removed and ReplicatedReplacingMergeTree(path, replica[, version]) read as
 * ReplacingMergeTree([version]); everything else (columns, keys, TTL, Distributed tables and their
 * sharding keys) is the file as written. Inserts go through the sink's own client.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterSchemaIT {
    private static final Path CLUSTER_SQL = Path.of("..", "deploy", "clickhouse", "cluster.sql");
    private static final Pattern REPLICATED = Pattern.compile("ReplicatedReplacingMergeTree\\('[^']*', '\\{replica\\}'(?:, (\\w+))?\\)");
    private static final List<String> TABLES = List.of("transactions", "traffic_1m", "errors", "errors_1m", "outcomes_1m",
            "requests_1m", "requests_1h", "errors_1h", "traffic_1h", "sessions_1h");

    @TempDir
    static Path dir;
    private static final List<Process> servers = new ArrayList<>();
    private static Client first;
    private static Client second;

    @BeforeAll
    static void startTwoShards() throws Exception {
        ChdbDistribution chdb = ChdbDistribution.ensureInstalled(ChdbDistribution.defaultCacheDir());
        int[] http = {Ports.free(), Ports.free()};
        int[] tcp = {Ports.free(), Ports.free()};
        Path config = dir.resolve("cluster.xml");
        Files.writeString(config, "<clickhouse><remote_servers><sluice>"
                + "<shard><internal_replication>true</internal_replication><replica><host>127.0.0.1</host><port>" + tcp[0] + "</port></replica></shard>"
                + "<shard><internal_replication>true</internal_replication><replica><host>127.0.0.1</host><port>" + tcp[1] + "</port></replica></shard>"
                + "</sluice></remote_servers><macros><cluster>sluice</cluster></macros></clickhouse>");
        for (int i = 0; i < 2; i++) {
            Path data = Files.createDirectories(dir.resolve("shard" + i));
            servers.add(new ProcessBuilder(chdb.launcher().toString(), chdb.library().toString(),
                    "--config-file=" + config, "--path=" + data, "--listen_host=127.0.0.1",
                    "--http_port=" + http[i], "--tcp_port=" + tcp[i],
                    "--query", "SYSTEM START LISTEN HTTP; SYSTEM START LISTEN TCP; "
                            + "SELECT sleepEachRow(0.2) FROM numbers(1000000000) SETTINGS max_block_size=1 FORMAT Null")
                    .redirectErrorStream(true).redirectOutput(dir.resolve("shard" + i + ".log").toFile()).start());
            awaitPing(http[i]);
        }
        first = ClickHouseClients.create(new ClickHouseSettings("http://127.0.0.1:" + http[0], "default", "", "sluice", 90));
        second = ClickHouseClients.create(new ClickHouseSettings("http://127.0.0.1:" + http[1], "default", "", "sluice", 90));
        for (String statement : statements()) {
            String keeperless = REPLICATED.matcher(statement.replace(" ON CLUSTER '{cluster}'", ""))
                    .replaceAll(match -> "ReplacingMergeTree(" + (match.group(1) == null ? "" : match.group(1)) + ")");
            run(first, keeperless);
            if (!keeperless.startsWith("INSERT")) {
                run(second, keeperless); // what ON CLUSTER would do; the INSERT runs once, as in production
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (Client client : new Client[] {first, second}) {
            if (client != null) {
                client.close();
            }
        }
        for (Process server : servers) {
            server.destroy();
            server.waitFor(15, TimeUnit.SECONDS);
        }
    }

    @Test
    void everyLocalTableHasTheColumnsOfTheSingleNodeSchema() {
        SchemaMigrations.apply(first, new ClickHouseSettings(ClickHouseSettings.URL.defaultValue(), "default", "", "single", 90));
        for (String table : TABLES) {
            assertEquals(columns("single", table), columns("sluice", table + "_local"), table);
            assertEquals(columns("single", table), columns("sluice", table), table + " (Distributed)");
        }
    }

    @Test
    void aDistributedInsertIsOnTheShardsWhenItReturns() throws Exception {
        run(first, "INSERT INTO sluice.transactions (event_id, project, timestamp, received_at) "
                + "SELECT concat('stored-', toString(number)), 'shop', now64(3), now64(3) FROM numbers(1000)");
        long onFirst = count(first, "SELECT count() FROM sluice.transactions_local WHERE startsWith(event_id, 'stored-')");
        long onSecond = count(second, "SELECT count() FROM sluice.transactions_local WHERE startsWith(event_id, 'stored-')");
        assertEquals(1000, onFirst + onSecond);
        assertTrue(onFirst > 0 && onSecond > 0, "both shards hold rows: " + onFirst + " and " + onSecond);
    }

    @Test
    void everyVersionOfAnAggregateRowLandsOnOneShardSoFinalIsExact() throws Exception {
        for (int version = 1; version <= 3; version++) {
            run(first, "INSERT INTO sluice.traffic_1m (project, environment, minute, requests, version) "
                    + "SELECT 'versions', concat('env-', toString(number)), toDateTime('2026-11-22 10:15:00', 'UTC'), " + version * 10
                    + ", " + version + " FROM numbers(40)");
        }
        assertEquals(40, count(first, "SELECT count() FROM sluice.traffic_1m FINAL WHERE project = 'versions'"));
        assertEquals(40 * 30, count(first, "SELECT sum(requests) FROM sluice.traffic_1m FINAL WHERE project = 'versions'"));
        long onFirst = count(first, "SELECT count() FROM sluice.traffic_1m_local WHERE project = 'versions'");
        assertTrue(onFirst > 0 && onFirst < 120, "both shards hold keys: " + onFirst + " of 120 rows on the first");
    }

    @Test
    void everyTtlReadsTheRowsRetentionWhoseDefaultIsTheDefaultRetention() throws Exception {
        String sql = String.join("\n", statements());
        Matcher ttl = Pattern.compile("\nTTL [^\\n]*\\+ toIntervalDay\\(retention_days\\)").matcher(sql);
        Matcher days = Pattern.compile("retention_days UInt16 DEFAULT (\\d+)").matcher(sql);
        int tables = 0;
        while (ttl.find()) {
            tables++;
        }
        int columns = 0;
        while (days.find()) {
            assertEquals(ClickHouseSettings.RETENTION_DAYS.defaultValue(), days.group(1));
            columns++;
        }
        assertEquals(10, tables);
        assertEquals(10, columns);
    }

    /*
     * A deletion or a retention change on the cluster alters each shard's local table ON CLUSTER. This cluster has no
     * Keeper, so ClickHouse refuses ON CLUSTER here (Code 392); the statement itself, run on every node as ON CLUSTER
     * would, is checked by theLocalTablesMutationRemovesExactlyTheUsersRowsOnEveryShard.
     */
    @Test
    void aUsersDeletionOnTheClusterAltersTheLocalTablesOnClusterNotTheDistributedTable() throws Exception {
        insertUserRows("deleted-user", "leaving", 10);
        DataDeletion deletion = new DataDeletion(first, "sluice", SinkTables.of(Topics.from(new Settings(Map.of())), "sluice"));

        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> deletion.deleteUser("deleted-user", "leaving", "test"));

        assertTrue(refused.getMessage().contains("Code: 392") && refused.getMessage().contains("Replicated DDL queries are disabled"),
                refused.getMessage());
    }

    @Test
    void aRetentionChangeOnTheClusterAltersTheLocalTablesOnClusterNotTheDistributedTable() throws Exception {
        insertUserRows("shorter-retention", "anyone", 10);
        RetentionChange change = new RetentionChange(first, "sluice", 90, SinkTables.of(Topics.from(new Settings(Map.of())), "sluice"));

        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> change.set("shorter-retention", 7, "test"));

        assertTrue(refused.getMessage().contains("Code: 392") && refused.getMessage().contains("Replicated DDL queries are disabled"),
                refused.getMessage());
    }

    @Test
    void theLocalTablesMutationRemovesExactlyTheUsersRowsOnEveryShard() throws Exception {
        insertUserRows("erasure", "leaving", 1000);
        insertUserRows("erasure", "staying", 100);
        String alter = Mutations.alter(first, "sluice.transactions", "DELETE WHERE project = 'erasure' AND user_id = 'leaving'");
        assertEquals("ALTER TABLE sluice.transactions_local ON CLUSTER '{cluster}' DELETE WHERE project = 'erasure' AND user_id = 'leaving'"
                + " SETTINGS mutations_sync = 2", alter);

        for (Client node : new Client[] {first, second}) {
            run(node, alter.replace(" ON CLUSTER '{cluster}'", "")); // what ON CLUSTER runs on each node
        }

        assertEquals(0, count(first, "SELECT count() FROM sluice.transactions WHERE project = 'erasure' AND user_id = 'leaving'"));
        assertEquals(100, count(first, "SELECT count() FROM sluice.transactions WHERE project = 'erasure' AND user_id = 'staying'"));
    }

    @Test
    void aTableThatIsNotDistributedIsAlteredItself() {
        assertEquals("ALTER TABLE sluice.deletions DELETE WHERE project = 'none' SETTINGS mutations_sync = 2",
                Mutations.alter(first, "sluice.deletions", "DELETE WHERE project = 'none'"));
    }

    @Test
    void theMigrationsAreRecordedAsApplied() throws Exception {
        assertEquals(SchemaMigrations.count(), count(first, "SELECT count() FROM sluice.schema_migrations FINAL"));
    }

    /** Rows of one user, spread over both shards by the Distributed table's sharding key. */
    private static void insertUserRows(String project, String user, int rows) throws Exception {
        run(first, "INSERT INTO sluice.transactions (event_id, project, timestamp, received_at, user_id) SELECT concat('" + user
                + "-', toString(number)), '" + project + "', now64(3), now64(3), '" + user + "' FROM numbers(" + rows + ")");
    }

    private static List<String> statements() throws IOException {
        List<String> statements = new ArrayList<>();
        for (String statement : Files.readString(CLUSTER_SQL).split(";\\s*\\n")) {
            String code = statement.lines().filter(line -> !line.strip().startsWith("--")).collect(Collectors.joining("\n")).strip();
            if (!code.isEmpty()) {
                statements.add(code);
            }
        }
        return statements;
    }

    private static String columns(String database, String table) {
        return first.queryAll("SELECT name, type FROM system.columns WHERE database = '" + database + "' AND table = '" + table
                        + "' ORDER BY position").stream()
                .map(row -> row.getString("name") + " " + row.getString("type")).collect(Collectors.joining(", "));
    }

    private static long count(Client client, String sql) {
        return client.queryAll(sql).get(0).getLong(1);
    }

    private static void run(Client client, String sql) throws Exception {
        client.query(sql).get(60, TimeUnit.SECONDS).close();
    }

    private static void awaitPing(int port) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ping")).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("ClickHouse on port " + port + " did not answer /ping within 60 s");
    }
}
