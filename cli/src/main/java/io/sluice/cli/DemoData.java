package io.sluice.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.clickhouse.client.api.Client;

import io.sluice.config.Aggregate;

/**
 * {@code ./sluice demo-data}: fills ClickHouse with synthetic traffic, generated inside ClickHouse
 * ({@code INSERT … SELECT … FROM numbers(…)}, millions of rows a second): one huge tenant with 50M
 * requests in the last 24 hours and 1,000 projects with 20M requests over 30 days (both times the
 * scale), errors included. History first; then every aggregate is computed from the history with
 * {@code GROUP BY}, so each equals what the rows it summarises hold, by construction.
 * Demo projects are named {@code demo-…}; a run first deletes the rows of earlier runs.
 */
public final class DemoData {
    public static final String HUGE_PROJECT = "demo-huge";
    /** The busiest of the small projects (they get skewed shares). */
    public static final String SMALL_PROJECT = "demo-small-0000";
    static final long HUGE_REQUESTS = 50_000_000;
    static final long SMALL_REQUESTS = 20_000_000;
    static final int SMALL_PROJECTS = 1_000;
    /** Errors per 1,000 requests: the huge tenant's and the small projects'. */
    private static final int HUGE_ERRORS_PER_MILLE = 10;
    private static final int SMALL_ERRORS_PER_MILLE = 20;
    /** Rows per INSERT: each statement ends well within the client's timeouts, and the user sees progress. */
    private static final long CHUNK = 10_000_000;
    private static final List<String> TABLES = Stream.concat(Stream.of("transactions", "errors"),
            Aggregate.ALL.stream().map(Aggregate::table)).toList();
    private static final Pattern DATABASE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final Client clickHouse;
    private final String db;
    private final PrintStream progress;

    /** @param progress where the steps are reported as they finish */
    public DemoData(Client clickHouse, String database, PrintStream progress) {
        if (!DATABASE.matcher(database).matches()) {
            throw new IllegalArgumentException("not a plain database name: " + database);
        }
        this.clickHouse = clickHouse;
        this.db = database;
        this.progress = progress;
    }

    /** What a run wrote: the projects to look at and the rows per table. */
    public record Summary(String hugeProject, String smallProject, double scale, long transactions, long errors,
                          int smallProjects, Duration took) {
    }

    /** Writes the demo data of {@code scale} (1: 50M + 20M requests), ending at the current minute. */
    public Summary fill(double scale) {
        if (!(scale > 0) || scale > 100) {
            throw new IllegalArgumentException("the scale is a number above 0 and at most 100, not " + scale);
        }
        long started = System.nanoTime();
        Instant end = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        long hugeRows = Math.max(1, Math.round(HUGE_REQUESTS * scale));
        long smallRows = Math.max(1, Math.round(SMALL_REQUESTS * scale));
        int projects = (int) Math.max(1, Math.round(SMALL_PROJECTS * scale));
        String hugeProject = "'" + HUGE_PROJECT + "'";
        // Skewed shares: project i of n gets about (sqrt((i+1)/n) - sqrt(i/n)) of the rows.
        String smallProject = "concat('demo-small-', leftPad(toString(toUInt32(floor(" + projects
                + " * pow((bitShiftRight(h, 44) % 65536) / 65536, 2)))), 4, '0'))";

        for (String table : TABLES) {
            execute("DELETE FROM " + db + "." + table + " WHERE startsWith(project, 'demo-')"
                    + (table.equals(Aggregate.OUTCOMES_1M.table()) ? " OR gateway = 'demo'" : ""), Map.of());
        }
        String transactions = resource("transactions.sql");
        String errors = resource("errors.sql");
        generate("transactions of " + HUGE_PROJECT + " (24 h)", transactions, hugeProject, "huge", hugeRows, end, Duration.ofDays(1));
        generate("transactions of " + projects + " small projects (30 days)", transactions, smallProject, "small", smallRows, end,
                Duration.ofDays(30));
        generate("errors of " + HUGE_PROJECT, errors, hugeProject, "huge", hugeRows * HUGE_ERRORS_PER_MILLE / 1000, end,
                Duration.ofDays(1));
        generate("errors of the small projects", errors, smallProject, "small", smallRows * SMALL_ERRORS_PER_MILLE / 1000, end,
                Duration.ofDays(30));
        aggregate(end, Duration.ofDays(30));
        long errorRows = hugeRows * HUGE_ERRORS_PER_MILLE / 1000 + smallRows * SMALL_ERRORS_PER_MILLE / 1000;
        return new Summary(HUGE_PROJECT, SMALL_PROJECT, scale, hugeRows + smallRows, errorRows, projects,
                Duration.ofNanos(System.nanoTime() - started));
    }

    /**
     * Computes every aggregate of the demo rows from their history, day by day over {@code span} up to
     * {@code end} (each aggregate's minute or hour lies within one day).
     */
    public void aggregate(Instant end, Duration span) {
        LocalDate last = LocalDate.ofInstant(end, ZoneOffset.UTC);
        LocalDate first = LocalDate.ofInstant(end.minus(span), ZoneOffset.UTC);
        for (String statement : statements(resource("aggregates.sql"))) {
            long t = System.nanoTime();
            Map<String, Object> parameters = new HashMap<>(Map.of("huge", HUGE_PROJECT, "end_s", end.getEpochSecond()));
            if (statement.contains("{day:Date}")) {
                for (LocalDate day = first; !day.isAfter(last); day = day.plusDays(1)) {
                    parameters.put("day", day.toString());
                    execute(statement, parameters);
                }
            } else {
                execute(statement, parameters);
            }
            String table = statement.substring(statement.indexOf(db + ".") + db.length() + 1, statement.indexOf(" ("));
            progress.printf("· aggregate %s (%.0f s)%n", table, (System.nanoTime() - t) / 1e9);
        }
    }

    private void generate(String what, String sql, String projectExpression, String seed, long rows, Instant end, Duration span) {
        if (rows == 0) {
            return;
        }
        String statement = sql.replace("${project}", projectExpression);
        long t = System.nanoTime();
        for (long first = 0; first < rows; first += CHUNK) {
            execute(statement, Map.of("rows", rows, "first", first, "count", Math.min(CHUNK, rows - first),
                    "start_ms", end.minus(span).toEpochMilli(), "span_ms", span.toMillis(), "seed", seed));
            progress.printf("· %s: %,d of %,d rows (%.0f s)%n", what, Math.min(rows, first + CHUNK), rows, (System.nanoTime() - t) / 1e9);
        }
    }

    private void execute(String sql, Map<String, Object> parameters) {
        try {
            clickHouse.execute(sql, parameters).get(30, TimeUnit.MINUTES).close();
        } catch (ExecutionException e) {
            throw new IllegalStateException("ClickHouse refused a demo-data statement: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("a demo-data statement took over 30 minutes", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (Exception e) { // close()
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private String resource(String name) {
        try (InputStream in = DemoData.class.getResourceAsStream("demo/" + name)) {
            if (in == null) {
                throw new IllegalStateException("demo/" + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("${database}", db);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The statements of a file: comment lines dropped, split at a semicolon that ends a line. */
    private static List<String> statements(String sql) {
        String code = sql.lines().filter(line -> !line.strip().startsWith("--")).collect(Collectors.joining("\n"));
        List<String> statements = new ArrayList<>();
        for (String statement : code.split(";\\s*\\n")) {
            if (!statement.isBlank()) {
                statements.add(statement.strip().replaceAll(";$", ""));
            }
        }
        return statements;
    }
}
