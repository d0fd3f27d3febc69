package io.sluice.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Topic names and shapes. Raw topics carry what clients sent; derived topics carry what the
 * processor computed, each aggregate's rows on its own topic ({@link Aggregate}); the projects
 * topic is the compacted project registry.
 */
public record Topics(String transactions, String errors, String sessions, String projects, String history, String errorHistory,
                     String deadLetters, Map<Aggregate, String> aggregates,
                     int partitions, short replicationFactor, Duration rawRetention, int minInsyncReplicas,
                     String quotaUsage) {
    public static final Setting TRANSACTIONS = new Setting("SLUICE_TOPIC_TRANSACTIONS",
            "sluice.transactions", "Raw transactions as clients sent them (key: project token).");
    public static final Setting ERRORS = new Setting("SLUICE_TOPIC_ERRORS",
            "sluice.errors", "Raw error reports as clients sent them (key: project token).");
    public static final Setting SESSIONS = new Setting("SLUICE_TOPIC_SESSIONS",
            "sluice.sessions", "Raw session items (release health) as clients sent them (key: project token).");
    public static final Setting PROJECTS = new Setting("SLUICE_TOPIC_PROJECTS",
            "sluice.projects", "Compacted project registry (key: project token).");
    public static final Setting HISTORY = new Setting("SLUICE_TOPIC_HISTORY",
            "sluice.history", "Processor output: one deduplicated, parsed row per accepted transaction.");
    public static final Setting TRAFFIC = Aggregate.TRAFFIC_1M.topic();
    public static final Setting ERROR_HISTORY = new Setting("SLUICE_TOPIC_ERROR_HISTORY",
            "sluice.error-history", "Processor output: one deduplicated, parsed row per accepted error report.");
    public static final Setting ERRORS_1M = Aggregate.ERRORS_1M.topic();
    public static final Setting OUTCOMES = Aggregate.OUTCOMES_1M.topic();
    public static final Setting DEAD_LETTERS = new Setting("SLUICE_TOPIC_DEAD_LETTERS",
            "sluice.dead-letters", "Records the processor could not process, with the reason in headers.");
    public static final Setting REQUESTS_1M = Aggregate.REQUESTS_1M.topic();
    public static final Setting REQUESTS_1H = Aggregate.REQUESTS_1H.topic();
    public static final Setting ERRORS_1H = Aggregate.ERRORS_1H.topic();
    public static final Setting TRAFFIC_1H = Aggregate.TRAFFIC_1H.topic();
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

    public static final List<Setting> SETTINGS = Stream.of(
            Stream.of(TRANSACTIONS, ERRORS, SESSIONS, PROJECTS, HISTORY, ERROR_HISTORY, DEAD_LETTERS),
            Aggregate.ALL.stream().map(Aggregate::topic),
            Stream.of(QUOTA_USAGE, PARTITIONS, REPLICATION_FACTOR, RAW_RETENTION, MIN_INSYNC_REPLICAS)).flatMap(s -> s).toList();

    public Topics {
        aggregates = Map.copyOf(aggregates);
        if (!aggregates.keySet().equals(Set.copyOf(Aggregate.ALL))) {
            throw new IllegalArgumentException("every aggregate needs its topic: " + aggregates.keySet());
        }
    }

    /** Topics whose min.insync.replicas follows the replication factor (the default). */
    public Topics(String transactions, String errors, String projects, String history, String traffic, String errorHistory,
                  String errors1m, String outcomes, String deadLetters, String requests1m, String requests1h, String errors1h,
                  String traffic1h, int partitions, short replicationFactor, Duration rawRetention) {
        this(transactions, errors, SESSIONS.defaultValue(), projects, history, errorHistory, deadLetters, Map.of(Aggregate.TRAFFIC_1M, traffic,
                        Aggregate.ERRORS_1M, errors1m, Aggregate.OUTCOMES_1M, outcomes, Aggregate.REQUESTS_1M, requests1m,
                        Aggregate.REQUESTS_1H, requests1h, Aggregate.ERRORS_1H, errors1h, Aggregate.TRAFFIC_1H, traffic1h,
                        Aggregate.SESSIONS_1H, Aggregate.SESSIONS_1H.topic().defaultValue()),
                partitions, replicationFactor, rawRetention, 0, QUOTA_USAGE.defaultValue());
    }

    /** The topic that carries the aggregate's rows. */
    /** The raw topics the gateway writes and the processor reads: its input lag is theirs. */
    public Set<String> raw() {
        return Set.of(transactions, errors, sessions);
    }

    public String of(Aggregate aggregate) {
        return aggregates.get(aggregate);
    }

    public String traffic() {
        return of(Aggregate.TRAFFIC_1M);
    }

    public String errors1m() {
        return of(Aggregate.ERRORS_1M);
    }

    public String outcomes() {
        return of(Aggregate.OUTCOMES_1M);
    }

    public String requests1m() {
        return of(Aggregate.REQUESTS_1M);
    }

    public String requests1h() {
        return of(Aggregate.REQUESTS_1H);
    }

    public String errors1h() {
        return of(Aggregate.ERRORS_1H);
    }

    public String traffic1h() {
        return of(Aggregate.TRAFFIC_1H);
    }

    /** The same topics with another history topic. */
    public Topics withHistory(String otherHistory) {
        return new Topics(transactions, errors, sessions, projects, otherHistory, errorHistory, deadLetters, aggregates, partitions,
                replicationFactor, rawRetention, minInsyncReplicas, quotaUsage);
    }

    /**
     * How many replicas must have a record before it counts as written ({@code acks=all}): as set,
     * or 2 where there are at least two replicas, so one broker's loss loses no acknowledged event.
     */
    public int effectiveMinInsyncReplicas() {
        return minInsyncReplicas > 0 ? minInsyncReplicas : Math.min(2, replicationFactor);
    }

    public static Topics from(Settings settings) {
        Map<Aggregate, String> aggregates = new LinkedHashMap<>();
        Aggregate.ALL.forEach(aggregate -> aggregates.put(aggregate, settings.get(aggregate.topic())));
        return new Topics(settings.get(TRANSACTIONS), settings.get(ERRORS), settings.get(SESSIONS), settings.get(PROJECTS), settings.get(HISTORY),
                settings.get(ERROR_HISTORY), settings.get(DEAD_LETTERS), aggregates,
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
