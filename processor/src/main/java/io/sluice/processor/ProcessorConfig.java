package io.sluice.processor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Setting;
import io.sluice.config.Settings;
import io.sluice.events.EventTime;
import io.sluice.processor.state.BoundedRocksDbMemory;
import io.sluice.processor.topology.ProcessorTopology;
import io.sluice.processor.topology.CardinalityLimits;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.SinkLimits;

/** Everything the processor is configured with, read once at startup. */
public record ProcessorConfig(KafkaSettings kafka, ClickHouseSettings clickHouse, String adminHost, int adminPort,
                              String applicationId,
                              String instanceId, int generation, Path stateDir,
                              int streamThreads, Duration commitInterval, Duration fetchWait, Duration eventTimeHorizon, Duration lateMargin,
                              SinkLimits sinkLimits, long rocksDbMemoryBytes, double rocksDbWriteBufferRatio,
                              long dedupFilterBytes, int routesPerDay, int environmentsPerDay,
                              int exceptionTypesPerDay, int releasesPerDay, boolean requestsByRoute) {
    public static final Setting ADMIN_HOST = new Setting("SLUICE_PROCESSOR_ADMIN_HOST", "127.0.0.1",
            "Address of the processor's /healthz, /readyz and /metrics.");
    public static final Setting ADMIN_PORT = new Setting("SLUICE_PROCESSOR_ADMIN_PORT", "8082",
            "Port of the processor's /healthz, /readyz and /metrics.").between(0, 65535);
    public static final Setting APPLICATION_ID = new Setting("SLUICE_PROCESSOR_APPLICATION_ID", "sluice-processor",
            "Kafka Streams application id: instances with the same id share the work.");
    public static final Setting INSTANCE_ID = new Setting("SLUICE_PROCESSOR_INSTANCE_ID", "",
            "Stable name of this instance (e.g. the pod name): restarted after a crash, it takes its place at once, no rebalance "
                    + "(a graceful stop leaves the group: its partitions move at once).");
    public static final Setting GENERATION = new Setting("SLUICE_PROCESSOR_GENERATION", "0",
            "Generation of aggregate rows: raise it (with a new application id) to recompute aggregates from the raw topics.").atLeast(0);
    public static final Setting STATE_DIR = new Setting("SLUICE_PROCESSOR_STATE_DIR",
            System.getProperty("java.io.tmpdir") + "/sluice-streams",
            "Directory of the processor's local state (RocksDB); rebuilt from Kafka when lost.");
    public static final Setting THREADS = new Setting("SLUICE_PROCESSOR_THREADS", "2",
            "Stream threads per instance (each runs a share of the partitions).").atLeast(1);
    public static final Setting COMMIT_INTERVAL = new Setting("SLUICE_PROCESSOR_COMMIT_INTERVAL", "100ms",
            "How often exactly-once transactions commit: bounds how fresh aggregates are.");
    public static final Setting FETCH_WAIT = new Setting("SLUICE_PROCESSOR_FETCH_WAIT", "50ms",
            "How long a stream thread's fetch may wait at the broker for 64 KiB of new records before it takes what there is "
                    + "(its consumer's fetch.max.wait.ms and fetch.min.bytes): fewer, fuller fetches (a fifth to a third less CPU per "
                    + "event for the whole pipeline at 3,000-5,000 events/s) for up to this much more delay in each of the two stages, and "
                    + "an idle thread's fetch returns this often. 0ms, or SLUICE_KAFKA_PROPERTY_FETCH_MIN_BYTES or _FETCH_MAX_WAIT_MS "
                    + "given, keeps those properties as they are (Kafka's defaults: answered at the first record, an idle fetch every 500 "
                    + "ms). 0ms, or 10ms to 1s.");
    /** The most a fetch may wait: beyond it the delay would show in every aggregate's freshness. */
    static final Duration MAX_FETCH_WAIT = Duration.ofSeconds(1);
    /** The least, but for 0: an idle thread's fetch comes back this often (a zero wait spins against the broker). */
    static final Duration MIN_FETCH_WAIT = Duration.ofMillis(10);
    public static final Setting LATE_MARGIN = new Setting("SLUICE_PROCESSOR_LATE_MARGIN", "2h",
            "How long a minute stays open beyond the horizon: covers clock skew and a task lagging behind the others; window stores keep horizon + margin.");
    public static final Setting ROCKSDB_MEMORY_BYTES = new Setting("SLUICE_PROCESSOR_ROCKSDB_MEMORY_BYTES", "268435456",
            "Off-heap bytes all RocksDB state stores of an instance share (block cache, index/filter blocks and memtables).").atLeast(1);
    public static final Setting ROCKSDB_WRITE_BUFFER_RATIO = new Setting("SLUICE_PROCESSOR_ROCKSDB_WRITE_BUFFER_RATIO", "0.5",
            "Share of SLUICE_PROCESSOR_ROCKSDB_MEMORY_BYTES that memtables (write buffers) may take; the rest caches blocks.");
    public static final Setting DEDUP_FILTER_BYTES = new Setting("SLUICE_PROCESSOR_DEDUP_FILTER_BYTES",
            Long.toString(ProcessorTopology.DEFAULT_FILTER_MEMORY_BYTES),
            "Heap bytes (within -Xmx) for the Bloom filters that spare the deduplication store a read for ids never seen: about "
                    + "3 bytes per event received within horizon + margin (the default: some 20 million); once spent, a task reads "
                    + "the store for every record until memory is free again (tried once a span of receive time later; correct, slower; "
                    + "logged). 0 turns them off.").atLeast(0);

    public static final Setting ROUTES_PER_DAY = new Setting("SLUICE_PROCESSOR_ROUTES_PER_DAY",
            Integer.toString(CardinalityLimits.DEFAULT_ROUTES_PER_DAY),
            "Routes a project may bring per event-time day (UTC) and raw partition before further new routes are counted as "
                    + "<other> in requests_1m, requests_1h and errors_1h (the history keeps every route): at most partitions x this "
                    + "many routes per project and day. Ten times this bounds the series the same way: the keys of those tables "
                    + "with their environment (a route with its op, method, status code and release, or exception type), <other> "
                    + "ones included; beyond it the environment is <other> too. Counted in outcomes as cardinality_limited:route. Ten times "
                    + "this also bounds errors_1m's keys (environment and exception type): beyond it the exception type is <other>, "
                    + "counted as cardinality_limited:exception_type.").atLeast(1);
    public static final Setting ENVIRONMENTS_PER_DAY = new Setting("SLUICE_PROCESSOR_ENVIRONMENTS_PER_DAY",
            Integer.toString(CardinalityLimits.DEFAULT_ENVIRONMENTS_PER_DAY),
            "Environments a project may bring per event-time day (UTC) and raw partition before further new ones are counted as "
                    + "<other> in every aggregate (the history keeps every environment); counted in outcomes as "
                    + "cardinality_limited:environment.").atLeast(1);
    public static final Setting EXCEPTION_TYPES_PER_DAY = new Setting("SLUICE_PROCESSOR_EXCEPTION_TYPES_PER_DAY",
            Integer.toString(CardinalityLimits.DEFAULT_EXCEPTION_TYPES_PER_DAY),
            "Exception types a project may bring per event-time day (UTC) and raw partition before further new ones are counted "
                    + "as <other> in errors_1m and errors_1h (the history keeps every type); counted in outcomes as "
                    + "cardinality_limited:exception_type.").atLeast(1);
    public static final Setting RELEASES_PER_DAY = new Setting("SLUICE_PROCESSOR_RELEASES_PER_DAY",
            Integer.toString(CardinalityLimits.DEFAULT_RELEASES_PER_DAY),
            "Releases a project may bring per event-time day (UTC) and raw partition before further new ones are counted as "
                    + "<other> in requests_1m, requests_1h and sessions_1h (the history keeps every release); counted in outcomes as "
                    + "cardinality_limited:release.").atLeast(1);

    public static final Setting REQUESTS_BY_ROUTE = new Setting("SLUICE_PROCESSOR_REQUESTS_BY_ROUTE", "true",
            "Count transactions by route into requests_1m and requests_1h, which the dashboard's route panels and ./sluice stats' "
                    + "top routes read: true or false. false leaves out their route limit, repartition topic and windows (some 4-6 us of "
                    + "stream-thread CPU per transaction) and those two tables stay empty.");

    public static final List<Setting> SETTINGS = List.of(ADMIN_HOST, ADMIN_PORT, APPLICATION_ID, INSTANCE_ID, GENERATION, STATE_DIR, THREADS, COMMIT_INTERVAL, FETCH_WAIT, LATE_MARGIN,
            ROCKSDB_MEMORY_BYTES, ROCKSDB_WRITE_BUFFER_RATIO, DEDUP_FILTER_BYTES, ROUTES_PER_DAY, ENVIRONMENTS_PER_DAY,
            EXCEPTION_TYPES_PER_DAY, RELEASES_PER_DAY, REQUESTS_BY_ROUTE);

    public static ProcessorConfig from(Settings settings) {
        return new ProcessorConfig(KafkaSettings.from(settings), ClickHouseSettings.from(settings),
                settings.get(ADMIN_HOST), settings.getInt(ADMIN_PORT),
                settings.get(APPLICATION_ID), settings.get(INSTANCE_ID), settings.getInt(GENERATION), Path.of(settings.get(STATE_DIR)), settings.getInt(THREADS),
                settings.getDuration(COMMIT_INTERVAL), settings.getDuration(FETCH_WAIT), settings.getDuration(EventTime.HORIZON), settings.getDuration(LATE_MARGIN),
                SinkLimits.from(settings), settings.getLong(ROCKSDB_MEMORY_BYTES), settings.getDouble(ROCKSDB_WRITE_BUFFER_RATIO),
                settings.getLong(DEDUP_FILTER_BYTES), settings.getInt(ROUTES_PER_DAY),
                settings.getInt(ENVIRONMENTS_PER_DAY), settings.getInt(EXCEPTION_TYPES_PER_DAY), settings.getInt(RELEASES_PER_DAY),
                settings.getBoolean(REQUESTS_BY_ROUTE));
    }

    /** Fails at startup, naming the setting, rather than when the first store opens. */
    public ProcessorConfig {
        BoundedRocksDbMemory.Budget.of(rocksDbMemoryBytes, rocksDbWriteBufferRatio);
        if (fetchWait.compareTo(MAX_FETCH_WAIT) > 0) {
            throw new IllegalArgumentException(FETCH_WAIT.name() + "=" + fetchWait.toMillis() + "ms is more than 1s");
        }
        if (!fetchWait.isZero() && fetchWait.compareTo(MIN_FETCH_WAIT) < 0) {
            throw new IllegalArgumentException(FETCH_WAIT.name() + "=" + fetchWait.toMillis() + "ms is less than 10ms: an idle "
                    + "stream thread would fetch that often; 0ms leaves the consumer's fetch properties as they are");
        }
    }

    public CardinalityLimits cardinalityLimits() {
        return CardinalityLimits.of(routesPerDay, environmentsPerDay, exceptionTypesPerDay, releasesPerDay);
    }

    /** Every setting the processor reads, its own and the shared ones. */
    public static List<Setting> allSettings() {
        return Stream.of(SETTINGS, SinkLimits.SETTINGS, ClickHouseSettings.SETTINGS, KafkaSettings.SETTINGS, EventTime.SETTINGS)
                .flatMap(List::stream).toList();
    }
}
