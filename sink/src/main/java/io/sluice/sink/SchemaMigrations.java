package io.sluice.sink;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.clickhouse.client.api.Client;

/**
 * Applies the numbered SQL files under {@code io/sluice/sink/schema/} in order, once each, and
 * records them in {@code <database>.schema_migrations}. Every statement is itself idempotent
 * ({@code IF NOT EXISTS}), so running again, or two processors at once, is safe.
 */
public final class SchemaMigrations {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaMigrations.class);
    /** In order. A new schema change is a new file here, never an edit of an applied one. */
    static final List<String> FILES = List.of("V001__transactions_and_traffic.sql", "V002__errors.sql",
            "V003__outcomes.sql", "V004__routes_in_history.sql",
            "V005__requests_by_route.sql", "V006__received_at_index.sql", "V007__traffic_by_hour.sql",
            "V008__estimated_traffic.sql",
            "V009__retention_per_project.sql", "V010__sessions.sql", "V011__release.sql");

    private SchemaMigrations() {
    }

    /** Applies what is missing; returns the names of the files applied now. */
    public static List<String> apply(Client client, ClickHouseSettings settings) {
        String db = settings.database();
        run(client, "CREATE DATABASE IF NOT EXISTS " + db);
        run(client, "CREATE TABLE IF NOT EXISTS " + db + ".schema_migrations "
                + "(version UInt32, name String, applied_at DateTime('UTC') DEFAULT now()) "
                + "ENGINE = ReplacingMergeTree ORDER BY version");
        Set<Long> applied = client.queryAll("SELECT version FROM " + db + ".schema_migrations FINAL").stream()
                .map(row -> row.getLong("version")).collect(Collectors.toSet());
        List<String> appliedNow = new ArrayList<>();
        for (String file : FILES) {
            long version = Long.parseLong(file.substring(1, file.indexOf("__")));
            if (applied.contains(version)) {
                continue;
            }
            for (String statement : statements(file, Map.of("database", db,
                    "retention_days", Integer.toString(settings.retentionDays())))) {
                run(client, statement);
            }
            run(client, "INSERT INTO " + db + ".schema_migrations (version, name) VALUES (" + version + ", '" + file + "')");
            LOG.info("applied ClickHouse schema migration {}", file);
            appliedNow.add(file);
        }
        return appliedNow;
    }

    /**
     * The migrations this build has that the database has not recorded as applied, in order: all of
     * them when the database or its record is missing. Changes nothing.
     */
    public static List<String> missing(Client client, ClickHouseSettings settings) {
        String db = settings.database();
        // The database name is the operator's setting (SLUICE_CLICKHOUSE_DATABASE), used as every statement here uses it.
        boolean recorded = client.queryAll("EXISTS TABLE " + db + ".schema_migrations").get(0).getLong(1) == 1;
        Set<Long> applied = !recorded ? Set.of()
                : client.queryAll("SELECT version FROM " + db + ".schema_migrations FINAL").stream()
                        .map(row -> row.getLong("version")).collect(Collectors.toSet());
        return FILES.stream().filter(file -> !applied.contains(Long.parseLong(file.substring(1, file.indexOf("__"))))).toList();
    }

    /** How many migrations this build has. */
    public static int count() {
        return FILES.size();
    }

    static List<String> statements(String file, Map<String, String> variables) {
        String sql;
        try (InputStream in = SchemaMigrations.class.getResourceAsStream("schema/" + file)) {
            if (in == null) {
                throw new IllegalStateException("schema file " + file + " is missing from the processor jar");
            }
            sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read schema file " + file, e);
        }
        for (Map.Entry<String, String> variable : variables.entrySet()) {
            sql = sql.replace("${" + variable.getKey() + "}", variable.getValue());
        }
        List<String> statements = new ArrayList<>();
        for (String statement : sql.split(";\\s*(\\n|$)")) {
            String withoutComments = statement.lines().filter(line -> !line.strip().startsWith("--"))
                    .collect(Collectors.joining("\n")).strip();
            if (!withoutComments.isEmpty()) {
                statements.add(withoutComments);
            }
        }
        return statements;
    }

    private static void run(Client client, String sql) {
        try {
            client.execute(sql).get(60, TimeUnit.SECONDS).close();
        } catch (Exception e) {
            throw new IllegalStateException("ClickHouse schema statement failed: " + firstLine(sql), e);
        }
    }

    private static String firstLine(String sql) {
        return sql.lines().findFirst().orElse(sql);
    }
}
