package io.sluice.bench.dashboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The ClickHouse panels of the shipped Grafana dashboard ({@code deploy/grafana/dashboards/sluice.json})
 * and their SQL as Grafana's ClickHouse data source sends it: macros and variables expanded for one
 * time range, one project, one route.
 */
public final class DashboardPanels {
    public static final Path SHIPPED = Path.of("deploy/grafana/dashboards/sluice.json");
    private static final Pattern TIME_FILTER = Pattern.compile("\\$__timeFilter\\((\\w+)\\)");

    /** One panel's query, as written in the dashboard. */
    public record Panel(String title, String sql) {
        /** True for the one panel allowed to read the request history instead of an aggregate. */
        public boolean readsHistory() {
            return sql.contains("sluice.transactions") || sql.contains("sluice.errors\n") || sql.contains("sluice.errors ");
        }
    }

    /** The values a dashboard's variables and time picker hold. */
    public record View(String project, String route, String status, Instant from, Instant to) {
        public static View last(Duration range, String project) {
            Instant to = Instant.now();
            return new View(project, "*", "", to.minus(range), to);
        }

        public View withRoute(String route) {
            return new View(project, route, status, from, to);
        }

        public View withStatus(String status) {
            return new View(project, route, status, from, to);
        }
    }

    private DashboardPanels() {
    }

    /** The shipped dashboard of the checkout this runs in: {@link #SHIPPED} under the working directory or a parent of it. */
    public static Path shippedFromWorkingDirectory() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(SHIPPED))) {
                return dir.resolve(SHIPPED);
            }
        }
        throw new IllegalStateException(SHIPPED + " is in no parent of " + Path.of("").toAbsolutePath() + ": run ./sluice in the checkout");
    }

    /** The ClickHouse panels (Prometheus panels are left out), in the dashboard's order. */
    public static List<Panel> clickHousePanels(Path dashboard) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(dashboard.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dashboard, e);
        }
        List<Panel> panels = new ArrayList<>();
        root.get("panels").forEach(panel -> panel.path("targets").forEach(target -> {
            if (target.has("rawSql")) {
                panels.add(new Panel(panel.get("title").asText(), target.get("rawSql").asText()));
            }
        }));
        return panels;
    }

    /** The queries of the dashboard's variables (project, route), in order. */
    public static List<String> variableQueries(Path dashboard) {
        try {
            List<String> queries = new ArrayList<>();
            new ObjectMapper().readTree(dashboard.toFile()).at("/templating/list").forEach(variable -> {
                if (variable.path("type").asText().equals("query")) {
                    queries.add(variable.get("query").asText());
                }
            });
            return queries;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dashboard, e);
        }
    }

    /** The SQL Grafana sends for this view (the ClickHouse data source's macros, the variables' values). */
    public static String expand(String sql, View view) {
        String from = "toDateTime(" + view.from().getEpochSecond() + ")";
        String to = "toDateTime(" + view.to().getEpochSecond() + ")";
        long intervalSeconds = Math.max(1, Duration.between(view.from(), view.to()).toSeconds() / 1000); // ~1,000 points
        String expanded = TIME_FILTER.matcher(sql).replaceAll(match -> Matcher.quoteReplacement(
                match.group(1) + " >= " + from + " AND " + match.group(1) + " <= " + to));
        return expanded.replace("$__fromTime", from).replace("$__toTime", to)
                .replace("$__interval_s", Long.toString(intervalSeconds))
                .replace("${project}", view.project())
                .replace("${route:sqlstring}", sqlString(view.route())).replace("${route}", view.route())
                .replace("${status:sqlstring}", sqlString(view.status()));
    }

    /** Grafana's {@code sqlstring} format: quoted, with quotes and backslashes escaped. */
    private static String sqlString(String value) {
        return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
