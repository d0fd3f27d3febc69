package io.sluice.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.query.GenericRecord;

/**
 * {@code ./sluice stats}: what someone wants to see right after sending data — requests per minute
 * as bars, the 2xx–5xx distribution, and the last requests, read from ClickHouse.
 */
final class StatsCommand {
    private static final int BAR_WIDTH = 40;
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter SECOND = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    private final Client clickHouse;
    private final String db;
    private final PrintStream out;

    StatsCommand(Client clickHouse, String database, PrintStream out) {
        this.clickHouse = clickHouse;
        this.db = database;
        this.out = out;
    }

    void run(String project, Duration since) {
        Map<String, Object> params = Map.of("project", project, "since", Instant.now().minus(since).getEpochSecond());
        List<GenericRecord> minutes = clickHouse.queryAll("SELECT toUnixTimestamp(minute) AS m, sum(requests) AS n FROM " + db
                + ".traffic_1m FINAL WHERE project = {project:String} AND minute >= toDateTime({since:UInt32}) "
                + "GROUP BY minute ORDER BY minute", params);
        long total = minutes.stream().mapToLong(row -> row.getLong("n")).sum();
        out.println("Project " + project + " — last " + since.toMinutes() + " min (UTC): " + total + " requests");
        out.println();
        out.println("Requests per minute");
        long peak = minutes.stream().mapToLong(row -> row.getLong("n")).max().orElse(0);
        List<GenericRecord> shown = minutes.subList(Math.max(0, minutes.size() - 30), minutes.size());
        if (shown.isEmpty()) {
            out.println("  (none yet: send some, or check ./sluice send-test-event)");
        }
        for (GenericRecord row : shown) {
            out.printf("  %s %s %d%n", MINUTE.format(Instant.ofEpochSecond(row.getLong("m"))),
                    bar(row.getLong("n"), peak), row.getLong("n"));
        }

        GenericRecord classes = clickHouse.queryAll("SELECT sum(status_1xx) AS s1, sum(status_2xx) AS s2, sum(status_3xx) AS s3, "
                + "sum(status_4xx) AS s4, sum(status_5xx) AS s5, sum(status_none) AS s0 FROM " + db + ".traffic_1m FINAL "
                + "WHERE project = {project:String} AND minute >= toDateTime({since:UInt32})", params).get(0);
        out.println();
        out.println("Status classes");
        String[][] labels = {{"1xx", "s1"}, {"2xx", "s2"}, {"3xx", "s3"}, {"4xx", "s4"}, {"5xx", "s5"}, {"none", "s0"}};
        for (String[] label : labels) {
            long count = classes.getLong(label[1]);
            out.printf("  %-4s %s %d%s%n", label[0], bar(count, total), count,
                    total == 0 ? "" : String.format(" (%.1f%%)", 100.0 * count / total));
        }

        List<GenericRecord> last = clickHouse.queryAll("SELECT toUnixTimestamp(timestamp) AS t, method, path, transaction, "
                + "ifNull(toString(status_code), '-') AS status, environment FROM " + db + ".transactions FINAL "
                + "WHERE project = {project:String} ORDER BY timestamp DESC LIMIT 10", Map.of("project", project));
        out.println();
        out.println("Last requests");
        if (last.isEmpty()) {
            out.println("  (none)");
        }
        for (GenericRecord row : last) {
            String what = row.getString("path").isEmpty() ? row.getString("transaction") : row.getString("method") + " " + row.getString("path");
            out.printf("  %s  %-40s %4s  %s%n", SECOND.format(Instant.ofEpochSecond(row.getLong("t"))), what,
                    row.getString("status"), row.getString("environment"));
        }
    }

    private static String bar(long value, long max) {
        int width = max == 0 ? 0 : (int) Math.round((double) BAR_WIDTH * value / max);
        return "█".repeat(width) + " ".repeat(BAR_WIDTH - width);
    }
}
