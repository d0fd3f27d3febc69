package io.sluice.config;

import java.time.Duration;
import java.util.List;

/**
 * Topic names and shapes. Raw topics carry what clients sent; derived topics carry what the
 * processor computed; the projects topic is the compacted project registry.
 */
public record Topics(String transactions, String errors, String projects,
                     String history, String traffic, String errorHistory, String errors1m, String outcomes,
                     String deadLetters, String requests1m, String requests1h, String errors1h, String traffic1h,
                     int partitions, short replicationFactor, Duration rawRetention, int minInsyncReplicas,
                     String quotaUsage) {
    public static final Setting TRANSACTIONS = new Setting("SLUICE_TOPIC_TRANSACTIONS",
            "sluice.transactions", "Raw transactions as clients sent them (key: project token).");
    public static final Setting ERRORS = new Setting("SLUICE_TOPIC_ERRORS",
            "sluice.errors", "Raw error reports as clients sent them (key: project token).");
    public static final Setting PROJECTS = new Setting("SLUICE_TOPIC_PROJECTS",
            "sluice.projects", "Compacted project registry (key: project token).");
    public static final Setting HISTORY = new Setting("SLUICE_TOPIC_HISTORY",
            "sluice.history", "Processor output: one deduplicated, parsed row per accepted transaction.");
    public static final Setting TRAFFIC = new Setting("SLUICE_TOPIC_TRAFFIC",
            "sluice.traffic-1m", "Processor output: absolute per-minute traffic counts.");
    public static final Setting ERROR_HISTORY = new Setting("SLUICE_TOPIC_ERROR_HISTORY",
            "sluice.error-history", "Processor output: one deduplicated, parsed row per accepted error report.");
    public static final Setting ERRORS_1M = new Setting("SLUICE_TOPIC_ERRORS_1M",
            "sluice.errors-1m", "Processor output: absolute per-minute error counts by exception type.");
    public static final Setting OUTCOMES = new Setting("SLUICE_TOPIC_OUTCOMES",
            "sluice.outcomes", "Gateway output: per project, minute and outcome, how many requests were accepted or refused why.");
    public static final Setting DEAD_LETTERS = new Setting("SLUICE_TOPIC_DEAD_LETTERS",
            "sluice.dead-letters", "Records the processor could not process, with the reason in headers.");
    public static final Setting REQUESTS_1M = new Setting("SLUICE_TOPIC_REQUESTS_1M",
            "sluice.requests-1m", "Processor output: absolute per-minute request counts and durations by op, route, method and status code.");
    public static final Setting REQUESTS_1H = new Setting("SLUICE_TOPIC_REQUESTS_1H",
            "sluice.requests-1h", "Processor output: absolute per-hour request counts and durations by op, route, method and status code.");
    public static final Setting ERRORS_1H = new Setting("SLUICE_TOPIC_ERRORS_1H",
            "sluice.errors-1h", "Processor output: absolute per-hour error counts by route and exception type.");
    public static final Setting TRAFFIC_1H = new Setting("SLUICE_TOPIC_TRAFFIC_1H",
            "sluice.traffic-1h", "Processor output: absolute per-hour traffic counts (traffic-1m's rows per hour).");
    public static final Setting QUOTA_USAGE = new Setting("SLUICE_TOPIC_QUOTA_USAGE",
            "sluice.quota-usage", "Gateways' recent demand per quota, which every gateway reads to share each quota with the others (one partition, kept a minute).");
    public static final Setting PARTITIONS = new Setting("SLUICE_TOPIC_PARTITIONS",
            "12", "Partitions of topics Sluice creates; bounds how many processor threads share the work.").atLeast(1);
    public static final Setting REPLICATION_FACTOR = new Setting("SLUICE_TOPIC_REPLICATION_FACTOR",
            "1", "Replication factor of topics Sluice creates (3 in production).").between(1, Short.MAX_VALUE);
    public static final Setting RAW_RETENTION = new Setting("SLUICE_TOPIC_RAW_RETENTION",
            "7d", "How long raw topics keep events: the window a replay can rebuild from.");

    public static final Setting MIN_INSYNC_REPLICAS = new Setting("SLUICE_TOPIC_MIN_INSYNC_REPLICAS",
            "0", "min.insync.replicas of topics Sluice creates (and expects of existing ones); 0: 2, or 1 with a replication factor of 1.");

    public static final List<Setting> SETTINGS = List.of(TRANSACTIONS, ERRORS, PROJECTS, HISTORY, TRAFFIC,
            ERROR_HISTORY, ERRORS_1M, OUTCOMES, DEAD_LETTERS, REQUESTS_1M, REQUESTS_1H, ERRORS_1H, TRAFFIC_1H, QUOTA_USAGE, PARTITIONS, REPLICATION_FACTOR, RAW_RETENTION,
            MIN_INSYNC_REPLICAS);

    /** Topics whose min.insync.replicas follows the replication factor (the default). */
    public Topics(String transactions, String errors, String projects, String history, String traffic, String errorHistory,
                  String errors1m, String outcomes, String deadLetters, String requests1m, String requests1h, String errors1h,
                  String traffic1h, int partitions, short replicationFactor, Duration rawRetention) {
        this(transactions, errors, projects, history, traffic, errorHistory, errors1m, outcomes, deadLetters, requests1m,
                requests1h, errors1h, traffic1h, partitions, replicationFactor, rawRetention, 0, QUOTA_USAGE.defaultValue());
    }

    /** The same topics with another history topic. */
    public Topics withHistory(String otherHistory) {
        return new Topics(transactions, errors, projects, otherHistory, traffic, errorHistory, errors1m, outcomes, deadLetters,
                requests1m, requests1h, errors1h, traffic1h, partitions, replicationFactor, rawRetention, minInsyncReplicas, quotaUsage);
    }

    /**
     * How many replicas must have a record before it counts as written ({@code acks=all}): as set,
     * or 2 where there are at least two replicas, so one broker's loss loses no acknowledged event.
     */
    public int effectiveMinInsyncReplicas() {
        return minInsyncReplicas > 0 ? minInsyncReplicas : Math.min(2, replicationFactor);
    }

    public static Topics from(Settings settings) {
        return new Topics(settings.get(TRANSACTIONS), settings.get(ERRORS), settings.get(PROJECTS),
                settings.get(HISTORY), settings.get(TRAFFIC), settings.get(ERROR_HISTORY), settings.get(ERRORS_1M),
                settings.get(OUTCOMES), settings.get(DEAD_LETTERS),
                settings.get(REQUESTS_1M), settings.get(REQUESTS_1H), settings.get(ERRORS_1H), settings.get(TRAFFIC_1H),
                settings.getInt(PARTITIONS), (short) settings.getInt(REPLICATION_FACTOR),
                settings.getDuration(RAW_RETENTION), minInsyncReplicas(settings), settings.get(QUOTA_USAGE));
    }

    private static int minInsyncReplicas(Settings settings) {
        int value = settings.getInt(MIN_INSYNC_REPLICAS);
        int replicationFactor = settings.getInt(REPLICATION_FACTOR);
        if (value < 0 || value > replicationFactor) {
            throw new IllegalArgumentException(MIN_INSYNC_REPLICAS.name() + "=" + value + " must be between 0 (automatic) and "
                    + REPLICATION_FACTOR.name() + " (" + replicationFactor + "): with more, no write would ever succeed");
        }
        return value;
    }
}
