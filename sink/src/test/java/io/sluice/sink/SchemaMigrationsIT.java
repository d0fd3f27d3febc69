package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.clickhouse.client.api.Client;

import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** "Numbered SQL files, each applied once and recorded in sluice.schema_migrations", on a real ClickHouse. */
@ExtendWith(RealEngines.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SchemaMigrationsIT {
    private static final List<String> ALL = SchemaMigrations.FILES;

    @Test
    void aSecondStartAppliesNothingAndRecordsEachMigrationOnce(Engines engines) {
        ClickHouseSettings settings = settings(engines, "sluice_migrate_twice");
        try (Client client = ClickHouseClients.create(settings)) {
            assertEquals(ALL, SchemaMigrations.apply(client, settings), "a fresh database gets every file");
            String recorded = ClickHouseQuery.run(engines, "SELECT version, name, applied_at FROM sluice_migrate_twice.schema_migrations "
                    + "ORDER BY version").strip();

            assertEquals(List.of(), SchemaMigrations.apply(client, settings), "the second start applies nothing");
            // Without FINAL: no second bookkeeping row was even inserted (ReplacingMergeTree would hide it under FINAL).
            assertEquals(recorded, ClickHouseQuery.run(engines, "SELECT version, name, applied_at FROM "
                    + "sluice_migrate_twice.schema_migrations ORDER BY version").strip());
            assertEquals("1\tV001__transactions_and_traffic.sql\n2\tV002__errors.sql\n3\tV003__outcomes.sql\n4\tV004__routes_in_history.sql\n5\tV005__requests_by_route.sql\n6\tV006__received_at_index.sql\n7\tV007__traffic_by_hour.sql\n8\tV008__estimated_traffic.sql\n9\tV009__retention_per_project.sql\n10\tV010__sessions.sql\n11\tV011__release.sql",
                    ClickHouseQuery.run(engines, "SELECT version, name FROM sluice_migrate_twice.schema_migrations ORDER BY version").strip());
        }
    }

    /** Applied once means a recorded file is not run again: a table it created and an operator dropped stays dropped. */
    @Test
    void aRecordedMigrationIsNotRunAgain(Engines engines) {
        ClickHouseSettings settings = settings(engines, "sluice_migrate_recorded");
        try (Client client = ClickHouseClients.create(settings)) {
            SchemaMigrations.apply(client, settings);
            ClickHouseQuery.run(engines, "DROP TABLE sluice_migrate_recorded.outcomes_1m");

            assertEquals(List.of(), SchemaMigrations.apply(client, settings));
            assertEquals("deletions,errors,errors_1h,errors_1m,project_retention,requests_1h,requests_1m,schema_migrations,sessions_1h,traffic_1h,traffic_1m,transactions", ClickHouseQuery.run(engines,
                    "SELECT arrayStringConcat(groupArray(name), ',') FROM (SELECT name FROM system.tables "
                            + "WHERE database = 'sluice_migrate_recorded' ORDER BY name)").strip());
        }
    }

    /** Two processors starting at once both succeed (every statement is IF NOT EXISTS) and leave one record per file. */
    @Test
    void twoConcurrentStartsBothSucceedAndLeaveOneRecordPerFile(Engines engines) throws Exception {
        ClickHouseSettings settings = settings(engines, "sluice_migrate_concurrent");
        try (Client first = ClickHouseClients.create(settings); Client second = ClickHouseClients.create(settings)) {
            CompletableFuture<List<String>> one = CompletableFuture.supplyAsync(() -> SchemaMigrations.apply(first, settings));
            CompletableFuture<List<String>> other = CompletableFuture.supplyAsync(() -> SchemaMigrations.apply(second, settings));
            one.get(60, TimeUnit.SECONDS);
            other.get(60, TimeUnit.SECONDS);
            assertEquals(ALL.stream().map(file -> Integer.toString(Integer.parseInt(file.substring(1, file.indexOf("__")))))
                    .collect(java.util.stream.Collectors.joining("\n")), ClickHouseQuery.run(engines,
                    "SELECT version FROM sluice_migrate_concurrent.schema_migrations FINAL ORDER BY version").strip());
            assertEquals("deletions,errors,errors_1h,errors_1m,outcomes_1m,project_retention,requests_1h,requests_1m,schema_migrations,sessions_1h,traffic_1h,traffic_1m,transactions", ClickHouseQuery.run(engines,
                    "SELECT arrayStringConcat(groupArray(name), ',') FROM (SELECT name FROM system.tables "
                            + "WHERE database = 'sluice_migrate_concurrent' ORDER BY name)").strip());
        }
    }

    private static ClickHouseSettings settings(Engines engines, String database) {
        ClickHouseQuery.run(engines, "DROP DATABASE IF EXISTS " + database);
        return new ClickHouseSettings(engines.clickHouseUrl(), engines.clickHouseUser(), engines.clickHousePassword(), database, 90);
    }
}
