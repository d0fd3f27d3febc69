package io.sluice.config;

import java.time.Duration;
import java.util.List;

/**
 * One aggregate table: its name, the topic that carries its rows (a setting, so a deployment may
 * rename it), the ClickHouse table it fills and the window it counts in. {@link #ALL} is the one
 * list of aggregates: topic set-up, the sink, replay and the processor's windows read it, so an
 * aggregate is declared here once. Names are what running deployments hold (topics, tables, the
 * processor's store of the same name): never change one.
 */
public record Aggregate(String name, Setting topic, String table, Window window) {
    /** What an aggregate row counts in: its length, and the column that holds its start (epoch seconds). */
    public enum Window {
        MINUTE(Duration.ofMinutes(1), "minute"),
        HOUR(Duration.ofHours(1), "hour");

        private final Duration size;
        private final String timeColumn;

        Window(Duration size, String timeColumn) {
            this.size = size;
            this.timeColumn = timeColumn;
        }

        public Duration size() {
            return size;
        }

        public String timeColumn() {
            return timeColumn;
        }
    }

    public static final Aggregate TRAFFIC_1M = new Aggregate("traffic-1m", new Setting("SLUICE_TOPIC_TRAFFIC",
            "sluice.traffic-1m", "Processor output: absolute per-minute traffic counts."), "traffic_1m", Window.MINUTE);
    public static final Aggregate ERRORS_1M = new Aggregate("errors-1m", new Setting("SLUICE_TOPIC_ERRORS_1M",
            "sluice.errors-1m", "Processor output: absolute per-minute error counts by exception type."), "errors_1m", Window.MINUTE);
    public static final Aggregate OUTCOMES_1M = new Aggregate("outcomes-1m", new Setting("SLUICE_TOPIC_OUTCOMES",
            "sluice.outcomes", "Gateway output: per project, minute and outcome, how many requests were accepted or refused why."),
            "outcomes_1m", Window.MINUTE);
    public static final Aggregate REQUESTS_1M = new Aggregate("requests-1m", new Setting("SLUICE_TOPIC_REQUESTS_1M",
            "sluice.requests-1m", "Processor output: absolute per-minute request counts and durations by op, route, method and status code."),
            "requests_1m", Window.MINUTE);
    public static final Aggregate REQUESTS_1H = new Aggregate("requests-1h", new Setting("SLUICE_TOPIC_REQUESTS_1H",
            "sluice.requests-1h", "Processor output: absolute per-hour request counts and durations by op, route, method and status code."),
            "requests_1h", Window.HOUR);
    public static final Aggregate ERRORS_1H = new Aggregate("errors-1h", new Setting("SLUICE_TOPIC_ERRORS_1H",
            "sluice.errors-1h", "Processor output: absolute per-hour error counts by route and exception type."), "errors_1h", Window.HOUR);
    public static final Aggregate TRAFFIC_1H = new Aggregate("traffic-1h", new Setting("SLUICE_TOPIC_TRAFFIC_1H",
            "sluice.traffic-1h", "Processor output: absolute per-hour traffic counts (traffic-1m's rows per hour)."), "traffic_1h", Window.HOUR);

    public static final Aggregate SESSIONS_1H = new Aggregate("sessions-1h", new Setting("SLUICE_TOPIC_SESSIONS_1H",
            "sluice.sessions-1h", "Processor output: absolute per-hour session counts (release health) by environment and release."),
            "sessions_1h", Window.HOUR);

    /** Every aggregate, in the order the sink inserts them. */
    public static final List<Aggregate> ALL = List.of(TRAFFIC_1M, ERRORS_1M, OUTCOMES_1M, REQUESTS_1M, REQUESTS_1H, ERRORS_1H, TRAFFIC_1H,
            SESSIONS_1H);
}
