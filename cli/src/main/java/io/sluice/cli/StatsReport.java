package io.sluice.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.query.GenericRecord;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sluice.events.DurationBuckets;

/**
 * {@code ./sluice stats}: what someone wants to see right after sending data — requests per minute
 * as bars, the status classes and codes, the top routes with their 5xx and p99, errors, each release's
 * requests, 5xx and errors, each release's sessions and crash-free rate, refusals (outcomes), and the last
 * requests. Everything but the last requests and the errors per release (the error history, one project's
 * range) is read from the aggregates;
 * ranges over 6 hours read the hourly rows. Where a project's clients sample, the estimated requests
 * stand beside each count, and the header says so.
 */
public final class StatsReport {
    private static final int BAR_WIDTH = 40;
    private static final Duration HOURLY_ABOVE = Duration.ofHours(6);
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter SECOND = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Each status class: its label, its count's and its estimate's column in the status_classes answer. */
    private static final String[][] CLASSES = {{"1xx", "s1", "e1"}, {"2xx", "s2", "e2"}, {"3xx", "s3", "e3"}, {"4xx", "s4", "e4"},
            {"5xx", "s5", "e5"}, {"none", "s0", "e0"}};

    private final Client clickHouse;
    private final String db;
    private final PrintStream out;

    StatsReport(Client clickHouse, String database, PrintStream out) {
        this.clickHouse = clickHouse;
        this.db = database;
        this.out = out;
    }

    /**
     * The queries of {@code stats}, by name, with parameters {@code project} (String) and
     * {@code since} (UInt32, epoch seconds), for a range of {@code since}: the bench times them.
     */
    public static Map<String, String> queries(String db, Duration since) {
        boolean hourly = since.compareTo(HOURLY_ABOVE) > 0;
        String requests = hourly ? db + ".requests_1h FINAL WHERE project = {project:String} AND hour >= toStartOfHour(toDateTime({since:UInt32}))"
                : db + ".requests_1m FINAL WHERE project = {project:String} AND minute >= toDateTime({since:UInt32})";
        String errors = hourly ? db + ".errors_1h FINAL WHERE project = {project:String} AND hour >= toStartOfHour(toDateTime({since:UInt32}))"
                : db + ".errors_1m FINAL WHERE project = {project:String} AND minute >= toDateTime({since:UInt32})";
        String traffic = db + ".traffic_1m FINAL WHERE project = {project:String} AND minute >= toDateTime({since:UInt32})";
        Map<String, String> queries = new LinkedHashMap<>();
        queries.put("per_minute", "SELECT toUnixTimestamp(minute) AS m, sum(requests) AS n, sum(estimated_requests) AS e FROM " + traffic
                + " GROUP BY minute ORDER BY minute");
        queries.put("status_classes", "SELECT sum(status_1xx) AS s1, sum(status_2xx) AS s2, sum(status_3xx) AS s3, sum(status_4xx) AS s4, "
                + "sum(status_5xx) AS s5, sum(status_none) AS s0, sum(estimated_status_1xx) AS e1, sum(estimated_status_2xx) AS e2, "
                + "sum(estimated_status_3xx) AS e3, sum(estimated_status_4xx) AS e4, sum(estimated_status_5xx) AS e5, "
                + "sum(estimated_status_none) AS e0 FROM " + traffic);
        queries.put("status_codes", "SELECT status_code AS code, sum(requests) AS n, sum(estimated_requests) AS e FROM " + requests
                + " AND op = 'http.server' GROUP BY status_code ORDER BY status_code");
        queries.put("top_routes", "WITH " + DurationBuckets.clickHouseBounds() + " AS bounds "
                + "SELECT op, route, n, s5xx, if(timed_n = 0, -1, bounds[arrayFirstIndex(c -> c >= 0.99 * timed_n, arrayCumSum(buckets))]) AS p99 "
                + "FROM (SELECT op, route, sum(requests) AS n, sumIf(requests, status_code >= 500) AS s5xx, sum(timed) AS timed_n, "
                + "sumForEach(duration_buckets) AS buckets FROM " + requests + " GROUP BY op, route) ORDER BY n DESC LIMIT 10");
        queries.put("errors", "SELECT exception_type AS type, sum(errors) AS n FROM " + errors
                + " GROUP BY exception_type ORDER BY n DESC LIMIT 10");
        // "Did the new release fail more?": each release's requests and 5xx beside the errors it reported,
        // counted once per event id in the error history (errors_1m and errors_1h have no release).
        queries.put("releases", "SELECT release, sum(n) AS n, sum(s5xx) AS s5xx, sum(reported) AS errors FROM ("
                + "SELECT release, sum(requests) AS n, sumIf(requests, status_code >= 500) AS s5xx, toUInt64(0) AS reported FROM "
                + requests + " GROUP BY release UNION ALL SELECT release, toUInt64(0), toUInt64(0), uniqExact(event_id) FROM " + db
                + ".errors WHERE project = {project:String} AND timestamp >= toDateTime64({since:UInt32}, 3) GROUP BY release) "
                + "GROUP BY release ORDER BY n DESC, release LIMIT 10");
        // Sessions by the hour they started: the hours the range touches.
        queries.put("release_health", "SELECT release, sum(started) AS n, sum(crashed) AS c, sum(errored) AS e FROM " + db
                + ".sessions_1h FINAL WHERE project = {project:String} AND hour >= toStartOfHour(toDateTime({since:UInt32})) "
                + "GROUP BY release ORDER BY n DESC LIMIT 10");
        queries.put("outcomes", "SELECT outcome, sum(events) AS n FROM " + db + ".outcomes_1m FINAL WHERE project = {project:String} "
                + "AND minute >= toDateTime({since:UInt32}) GROUP BY outcome ORDER BY n DESC");
        return queries;
    }

    /** Reads the project's numbers once and prints them, as text or as one JSON object. */
    void run(String project, Duration since, boolean json) {
        Map<String, Object> params = Map.of("project", project, "since", Instant.now().minus(since).getEpochSecond());
        Map<String, List<GenericRecord>> answers = new LinkedHashMap<>();
        queries(db, since).forEach((name, sql) -> answers.put(name, clickHouse.queryAll(sql, params)));
        List<GenericRecord> last = new RequestHistory(clickHouse, db).last(project, 10, "", 0);
        if (json) {
            out.println(json(project, since, answers, last));
        } else {
            text(project, since, answers, last);
        }
    }

    private void text(String project, Duration since, Map<String, List<GenericRecord>> answers, List<GenericRecord> last) {
        List<GenericRecord> minutes = answers.get("per_minute");
        long total = minutes.stream().mapToLong(row -> row.getLong("n")).sum();
        boolean sampled = sampled(minutes);
        out.println("Project " + project + " — last " + since.toMinutes() + " min (UTC): " + total + " requests"
                + (sampled ? " stored, an estimated " + whole(estimated(minutes)) + " happened" : ""));
        if (sampled) {
            out.println("Its clients sample: each stored request stands for 1 / its sample rate (est. beside each count)");
        }
        out.println();
        out.println("Requests per minute");
        long peak = minutes.stream().mapToLong(row -> row.getLong("n")).max().orElse(0);
        List<GenericRecord> shown = minutes.subList(Math.max(0, minutes.size() - 30), minutes.size());
        if (shown.isEmpty()) {
            out.println("  (none yet: send some, or check ./sluice send-test-event)");
        }
        for (GenericRecord row : shown) {
            out.printf("  %s %s %d%s%n", MINUTE.format(Instant.ofEpochSecond(row.getLong("m"))), bar(row.getLong("n"), peak), row.getLong("n"),
                    estimate(sampled, row.getDouble("e")));
        }

        GenericRecord classes = answers.get("status_classes").get(0);
        out.println();
        out.println("Status classes");
        for (String[] label : CLASSES) {
            long count = classes.getLong(label[1]);
            out.printf("  %-4s %s %d%s%s%n", label[0], bar(count, total), count, total == 0 ? "" : String.format(" (%.1f%%)", 100.0 * count / total),
                    estimate(sampled, classes.getDouble(label[2])));
        }

        out.println();
        out.println("Status codes");
        none(answers.get("status_codes"));
        for (GenericRecord row : answers.get("status_codes")) {
            out.printf("  %-4s %d%s%n", row.getInteger("code") == 0 ? "none" : row.getString("code"), row.getLong("n"),
                    estimate(sampled, row.getDouble("e")));
        }

        out.println();
        out.println("Top routes                                              requests      5xx   p99 ms");
        none(answers.get("top_routes"));
        for (GenericRecord row : answers.get("top_routes")) {
            double p99 = row.getDouble("p99");
            out.printf("  %-52s %9d %8d %8s%n", shorten(row.getString("route") + (row.getString("op").equals("http.server") ? ""
                    : "  (" + row.getString("op") + ")"), 52), row.getLong("n"), row.getLong("s5xx"), p99 < 0 ? "-" : String.format("%.0f", p99));
        }

        out.println();
        List<GenericRecord> errors = answers.get("errors");
        out.println("Errors: " + errors.stream().mapToLong(row -> row.getLong("n")).sum() + (errors.size() == 10 ? " in the top 10 types" : ""));
        for (GenericRecord row : errors) {
            out.printf("  %-52s %9d%n", shorten(row.getString("type"), 52), row.getLong("n"));
        }

        out.println();
        out.println("Releases                                                requests      5xx  5xx %   errors");
        none(answers.get("releases"));
        for (GenericRecord row : answers.get("releases")) {
            long requests = row.getLong("n");
            out.printf("  %-52s %9d %8d %6s %8d%n", shorten(release(row), 52), requests, row.getLong("s5xx"),
                    requests == 0 ? "-" : String.format("%.1f", 100.0 * row.getLong("s5xx") / requests), row.getLong("errors"));
        }

        out.println();
        out.println("Release health                                          sessions  crash-free  crashed");
        none(answers.get("release_health"));
        for (GenericRecord row : answers.get("release_health")) {
            out.printf("  %-52s %9d %10s %8d%n", shorten(row.getString("release"), 52), row.getLong("n"),
                    crashFree(row).isNaN() ? "-" : String.format("%.2f%%", crashFree(row)), row.getLong("c"));
        }

        out.println();
        out.println("Outcomes (accepted, and refused why)");
        none(answers.get("outcomes"));
        for (GenericRecord row : answers.get("outcomes")) {
            out.printf("  %-28s %9d%n", row.getString("outcome"), row.getLong("n"));
        }

        out.println();
        out.println("Last requests");
        none(last);
        for (GenericRecord row : last) {
            String what = row.getString("path").isEmpty() ? row.getString("transaction") : row.getString("method") + " " + row.getString("path");
            out.printf("  %s  %-40s %4s  %s%n", SECOND.format(Instant.ofEpochMilli(row.getLong("t"))), what,
                    row.getString("status"), row.getString("environment"));
        }
    }

    private String json(String project, Duration since, Map<String, List<GenericRecord>> answers, List<GenericRecord> last) {
        ObjectNode root = JSON.createObjectNode();
        root.put("project", project);
        root.put("since_minutes", since.toMinutes());
        ArrayNode minutes = root.putArray("per_minute");
        long total = 0;
        for (GenericRecord row : answers.get("per_minute")) {
            minutes.addObject().put("minute", Instant.ofEpochSecond(row.getLong("m")).toString()).put("requests", row.getLong("n"))
                    .put("estimated_requests", row.getDouble("e"));
            total += row.getLong("n");
        }
        root.put("requests", total);
        root.put("estimated_requests", estimated(answers.get("per_minute")));
        root.put("sampled", sampled(answers.get("per_minute")));
        GenericRecord classes = answers.get("status_classes").get(0);
        ObjectNode classNode = root.putObject("status_classes");
        ObjectNode estimatedClasses = root.putObject("estimated_status_classes");
        for (String[] label : CLASSES) {
            classNode.put(label[0], classes.getLong(label[1]));
            estimatedClasses.put(label[0], classes.getDouble(label[2]));
        }
        ObjectNode codes = root.putObject("status_codes");
        ObjectNode estimatedCodes = root.putObject("estimated_status_codes");
        for (GenericRecord row : answers.get("status_codes")) {
            String code = row.getInteger("code") == 0 ? "none" : row.getString("code");
            codes.put(code, row.getLong("n"));
            estimatedCodes.put(code, row.getDouble("e"));
        }
        ArrayNode routes = root.putArray("top_routes");
        for (GenericRecord row : answers.get("top_routes")) {
            ObjectNode route = routes.addObject().put("op", row.getString("op")).put("route", row.getString("route"))
                    .put("requests", row.getLong("n")).put("status_5xx", row.getLong("s5xx"));
            if (row.getDouble("p99") >= 0) {
                route.put("p99_ms", row.getDouble("p99"));
            } else {
                route.putNull("p99_ms");
            }
        }
        ObjectNode errors = root.putObject("errors");
        answers.get("errors").forEach(row -> errors.put(row.getString("type"), row.getLong("n")));
        ArrayNode releases = root.putArray("releases");
        for (GenericRecord row : answers.get("releases")) {
            releases.addObject().put("release", row.getString("release")).put("requests", row.getLong("n"))
                    .put("status_5xx", row.getLong("s5xx")).put("errors", row.getLong("errors"));
        }
        ArrayNode health = root.putArray("release_health");
        for (GenericRecord row : answers.get("release_health")) {
            ObjectNode release = health.addObject().put("release", row.getString("release")).put("sessions", row.getLong("n"))
                    .put("crashed", row.getLong("c")).put("errored", row.getLong("e"));
            if (crashFree(row).isNaN()) {
                release.putNull("crash_free_percent");
            } else {
                release.put("crash_free_percent", crashFree(row));
            }
        }
        ObjectNode outcomes = root.putObject("outcomes");
        answers.get("outcomes").forEach(row -> outcomes.put(row.getString("outcome"), row.getLong("n")));
        ArrayNode requests = root.putArray("last_requests");
        for (GenericRecord row : last) {
            requests.addObject().put("timestamp", Instant.ofEpochMilli(row.getLong("t")).toString()).put("event_id", row.getString("event_id"))
                    .put("route", row.getString("route")).put("method", row.getString("method")).put("path", row.getString("path"))
                    .put("status", row.getString("status")).put("environment", row.getString("environment"));
        }
        return root.toString();
    }

    /** A release's sessions that did not crash, in percent (Sentry's crash-free sessions); NaN when none started. */
    private static Double crashFree(GenericRecord release) {
        long started = release.getLong("n");
        return started == 0 ? Double.NaN : 100.0 * (started - release.getLong("c")) / started;
    }

    /** Whether the range's estimate differs from its count: some client sampled. */
    private static boolean sampled(List<GenericRecord> minutes) {
        return minutes.stream().anyMatch(row -> row.getDouble("e") != row.getLong("n"));
    }

    private static double estimated(List<GenericRecord> minutes) {
        return minutes.stream().mapToDouble(row -> row.getDouble("e")).sum();
    }

    /** "  est. 40" beside a count where the project's data is sampled; nothing where it is not. */
    private static String estimate(boolean sampled, double estimated) {
        return sampled ? "  est. " + whole(estimated) : "";
    }

    private static String whole(double estimated) {
        return String.format("%.0f", estimated);
    }

    /** A release as shown: "(none)" for events that named none. */
    private static String release(GenericRecord row) {
        return row.getString("release").isEmpty() ? "(none)" : row.getString("release");
    }

    private void none(List<GenericRecord> rows) {
        if (rows.isEmpty()) {
            out.println("  (none)");
        }
    }

    private static String shorten(String text, int width) {
        return text.length() <= width ? text : text.substring(0, width - 1) + "…";
    }

    private static String bar(long value, long max) {
        int width = max == 0 ? 0 : (int) Math.round((double) BAR_WIDTH * value / max);
        return "█".repeat(width) + " ".repeat(BAR_WIDTH - width);
    }
}
