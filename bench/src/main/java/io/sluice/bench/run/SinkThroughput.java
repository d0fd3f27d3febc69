package io.sluice.bench.run;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import com.clickhouse.client.api.Client;
import com.clickhouse.data.ClickHouseFormat;

import io.sluice.bench.ceiling.HistoryRowBinary;
import io.sluice.bench.ceiling.HistoryRows;
import io.sluice.bench.ceiling.RowBinaryRows;
import io.sluice.bench.process.CpuClock;
import io.sluice.bench.process.CpuWindow;
import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.engines.Directories;
import io.sluice.engines.EnginePair;
import io.sluice.kafka.KafkaClients;
import io.sluice.kafka.TopicSetup;
import io.sluice.metrics.PrometheusMetrics;
import io.sluice.processor.ProcessorConfig;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.ClickHouseSink;
import io.sluice.sink.RowInserter;
import io.sluice.sink.SchemaMigrations;

/**
 * The sink alone, against ClickHouse's own insert ceilings for the same rows, measured in the same
 * run: {@code rows} history rows as the processor writes them ({@link HistoryRows}) are produced to
 * a topic of their own, then the real {@link ClickHouseSink} (built as the processor builds it,
 * same batch limits) copies them into a copy of the transactions table.
 *
 * @param sink              rows/s of the sink, from 20% to all of the rows in ClickHouse (no start-up)
 * @param jsonEachRow       ceiling: the same JSON rows inserted as JSONEachRow, 50,000 per insert
 * @param rowBinary         ceiling: the same rows pre-encoded as RowBinary, 50,000 per insert
 * @param jsonAtSinkBatch   the JSON rows as JSONEachRow in the sink's batch size (the sink's insert alone)
 * @param rowBinaryAtSinkBatch the pre-encoded RowBinary rows in the sink's batch size
 * @param convertedAtSinkBatch the JSON rows parsed and encoded as RowBinary, then inserted, in the sink's
 *                          batch size: what the sink would do in RowBinary (conversion timed)
 * @param sinkCpu           the sink's CPU per row, over the interval its rate is measured over
 * @param jsonAtSinkBatchCpu the CPU per row of inserting the same JSON rows directly, in the sink's batch size
 */
public record SinkThroughput(int rows, double sink, double jsonEachRow, double rowBinary, double jsonAtSinkBatch,
                      double rowBinaryAtSinkBatch, double convertedAtSinkBatch, CpuPerRow sinkCpu, CpuPerRow jsonAtSinkBatchCpu) {
    private static final int ROWS_PER_INSERT = 50_000;
    private static final Duration INSERT_TIMEOUT = Duration.ofSeconds(120);
    /** The retention_days the RowBinary ceilings write: any valid value, they measure speed, not content. */
    private static final long RETENTION_DAYS = 90;
    private static final String TABLE = "bench_sink";
    /** The thread the sink runs on; its consumer's group, and so its Kafka clients' threads, are named after it. */
    private static final String SINK_THREAD = "sink-alone";
    private static final String INSERT_THREAD = "direct-insert";
    /** The sink's threads in this JVM: its own, its consumer's heartbeat and its dead-letter producer's I/O. */
    static final CpuClock.Component SINK = new CpuClock.Component("sink", List.of(SINK_THREAD,
            "kafka-coordinator-heartbeat-thread | " + SINK_THREAD + "-", "kafka-producer-network-thread | " + SINK_THREAD + "-"));
    /** The thread that inserts the same rows directly. */
    static final CpuClock.Component DIRECT_INSERT = new CpuClock.Component("direct insert", List.of(INSERT_THREAD));

    /**
     * µs of CPU per row: the inserting side's (the sink's threads, or the thread that inserts directly; the
     * broker's share of the sink's reads is in neither) and ClickHouse's (its whole process over the same
     * interval, any background merge included).
     */
    public record CpuPerRow(double inserting, double clickHouse) {
        public double total() {
            return inserting + clickHouse;
        }
    }

    /** A rate and the CPU per row over the same interval. */
    private record Measured(double rowsPerSecond, CpuPerRow cpu) {
    }

    /** One way of inserting's CPU from now on: its threads in this JVM, and ClickHouse's process. */
    private static final class InsertCpu {
        private final CpuWindow inserting;
        private final CpuWindow clickHouse;

        InsertCpu(CpuClock.Component threads, long clickHousePid) {
            inserting = CpuWindow.start(CpuClock.ofThisJvm("bench", List.of(threads)), threads.name());
            clickHouse = CpuWindow.start(CpuClock.of("clickhouse", clickHousePid, List.of()), "clickhouse");
        }

        CpuPerRow perRow(double rowsPerSecond) {
            return new CpuPerRow(CpuWindow.microsPerEvent(inserting.coresUsed(), rowsPerSecond),
                    CpuWindow.microsPerEvent(clickHouse.coresUsed(), rowsPerSecond));
        }
    }

    public double ratioToJsonEachRow() {
        return sink / jsonEachRow;
    }

    public static SinkThroughput measure(ProcessorConfig config, int rows, long clickHousePid) throws Exception {
        HistoryRows history = HistoryRows.of(rows);
        return measure(config, history, produce(config.kafka(), history), clickHousePid);
    }

    /**
     * @param topic         holds exactly the {@code history} rows; each measurement reads it with a new group
     * @param clickHousePid the ClickHouse server's process, whose CPU per row is measured beside the inserting side's
     */
    private static SinkThroughput measure(ProcessorConfig config, HistoryRows history, String topic, long clickHousePid)
            throws Exception {
        int rows = history.size();
        String table = config.clickHouse().database() + "." + TABLE;
        try (Client client = ClickHouseClients.create(config.clickHouse())) {
            SchemaMigrations.apply(client, config.clickHouse());
            client.execute("CREATE TABLE IF NOT EXISTS " + table + " AS " + config.clickHouse().database() + ".transactions")
                    .get().close();
            client.execute("TRUNCATE TABLE " + table).get().close();
            Measured sink = sinkRate(config, client, topic, table, rows, clickHousePid);

            client.execute("TRUNCATE TABLE " + table).get().close();
            double json = jsonRate(client, table, history, ROWS_PER_INSERT, clickHousePid).rowsPerSecond();
            client.execute("TRUNCATE TABLE " + table).get().close();
            double binary = rowBinaryRate(client, table, history, ROWS_PER_INSERT);
            client.execute("TRUNCATE TABLE " + table).get().close();
            int sinkBatch = config.sinkLimits().batchRows();
            Measured jsonSinkBatch = jsonRate(client, table, history, sinkBatch, clickHousePid);
            client.execute("TRUNCATE TABLE " + table).get().close();
            double converted = convertedRate(client, table, history, sinkBatch);
            long stored = count(client, table);
            if (stored != rows) {
                throw new IllegalStateException("the converted RowBinary inserts stored " + stored + " of " + rows + " rows");
            }
            client.execute("TRUNCATE TABLE " + table).get().close();
            double binarySinkBatch = rowBinaryRate(client, table, history, sinkBatch);
            return new SinkThroughput(rows, sink.rowsPerSecond(), json, binary, jsonSinkBatch.rowsPerSecond(), binarySinkBatch,
                    converted, sink.cpu(), jsonSinkBatch.cpu());
        }
    }

    /** Writes the rows, keyed by project as the processor keys them, to a new topic; returns its name. Tried twice. */
    private static String produce(KafkaSettings kafka, HistoryRows history) throws Exception {
        try {
            return produceOnce(kafka, history);
        } catch (IllegalStateException failed) {
            System.err.println("  " + failed.getMessage() + ": once more, into a new topic");
            return produceOnce(kafka, history);
        }
    }

    private static String produceOnce(KafkaSettings kafka, HistoryRows history) throws Exception {
        String topic = kafka.topics().history() + ".sink-bench-" + System.nanoTime();
        try (Admin admin = Admin.create(KafkaClients.adminProperties(kafka, "sink-bench-admin"))) {
            admin.createTopics(List.of(new NewTopic(topic, kafka.topics().partitions(), kafka.topics().replicationFactor())))
                    .all().get(30, TimeUnit.SECONDS);
        }
        Properties props = KafkaClients.producerProperties(kafka, "sink-bench-producer");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 * 1024));
        // A fill held by the broker's transient OutOfOrderSequenceException (KAFKA-18202) fails
        // within half a minute, not two, and is tried once more (produce).
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        AtomicReference<Exception> failed = new AtomicReference<>();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
            awaitLeaders(producer, topic, kafka.topics().partitions());
            for (int i = 0; i < history.size() && failed.get() == null; i++) {
                // Spread over the partitions as many projects' tokens would be.
                producer.send(new ProducerRecord<>(topic, i % kafka.topics().partitions(), HistoryRows.PROJECT, history.json().get(i)),
                        (metadata, e) -> {
                            if (e != null) {
                                failed.compareAndSet(null, e);
                            }
                        });
            }
            producer.flush();
        }
        if (failed.get() != null) {
            throw new IllegalStateException("could not fill " + topic, failed.get());
        }
        return topic;
    }

    /** A topic just created may have no leader yet; records sent then fail. */
    private static void awaitLeaders(KafkaProducer<?, ?> producer, String topic, int partitions) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (producer.partitionsFor(topic).stream().filter(p -> p.leader() != null && !p.leader().isEmpty()).count() < partitions) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(topic + " has no leader for every partition");
            }
            Thread.sleep(100);
        }
    }

    private static Measured sinkRate(ProcessorConfig config, Client client, String topic, String table, int rows, long clickHousePid)
            throws Exception {
        try (PrometheusMetrics metrics = new PrometheusMetrics();
             ClickHouseSink sink = new ClickHouseSink(client, config.kafka(), SINK_THREAD + "-" + System.nanoTime(), "",
                     Map.of(topic, table), config.kafka().topics().deadLetters(), config.sinkLimits(), metrics)) {
            Thread thread = new Thread(sink, SINK_THREAD);
            thread.start();
            long startedAt = 0;
            InsertCpu cpu = null;
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (true) {
                long stored = count(client, table);
                if (stored >= rows / 5 && startedAt == 0) {
                    startedAt = System.nanoTime();
                    cpu = new InsertCpu(SINK, clickHousePid);
                }
                if (stored >= rows) {
                    double rate = (rows - rows / 5) / Math.max(0.001, (System.nanoTime() - startedAt) / 1e9);
                    CpuPerRow perRow = cpu.perRow(rate);
                    sink.close();
                    thread.join(30_000);
                    return new Measured(rate, perRow);
                }
                if (!thread.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the sink stopped or stalled at " + stored + " of " + rows + " rows");
                }
                Thread.sleep(20);
            }
        }
    }

    /** The rows inserted as JSONEachRow through the sink's {@link RowInserter}, on a thread of their own. */
    private static Measured jsonRate(Client client, String table, HistoryRows history, int perInsert, long clickHousePid)
            throws Exception {
        List<List<RowInserter.Row>> batches = new ArrayList<>();
        for (int from = 0; from < history.size(); from += perInsert) {
            List<RowInserter.Row> batch = new ArrayList<>();
            for (int i = from; i < Math.min(history.size(), from + perInsert); i++) {
                batch.add(new RowInserter.Row(null, history.json().get(i), "bench/0@" + i));
            }
            batches.add(batch);
        }
        RowInserter inserter = new RowInserter(client, INSERT_TIMEOUT);
        return onInsertThread(() -> {
            InsertCpu cpu = new InsertCpu(DIRECT_INSERT, clickHousePid);
            long start = System.nanoTime();
            for (List<RowInserter.Row> batch : batches) {
                List<RowInserter.Refused> refused = inserter.insert(table, batch);
                if (!refused.isEmpty()) {
                    throw new IllegalStateException("ClickHouse refused a bench row: " + refused.get(0).reason());
                }
            }
            double rate = history.size() / ((System.nanoTime() - start) / 1e9);
            return new Measured(rate, cpu.perRow(rate));
        });
    }

    /** Runs {@code inserts} on the thread {@link #DIRECT_INSERT} names, so that its CPU is told from the rest of this JVM's. */
    private static <T> T onInsertThread(Callable<T> inserts) throws Exception {
        FutureTask<T> task = new FutureTask<>(inserts);
        new Thread(task, INSERT_THREAD).start();
        try {
            return task.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private static double rowBinaryRate(Client client, String table, HistoryRows history, int perInsert) throws Exception {
        List<byte[]> batches = new ArrayList<>();
        RowBinaryRows batch = new RowBinaryRows();
        for (int i = 0; i < history.size(); i++) {
            HistoryRowBinary.add(batch, history.facts().get(i), RETENTION_DAYS);
            if ((i + 1) % perInsert == 0 || i == history.size() - 1) {
                batches.add(batch.takeBytes());
            }
        }
        long start = System.nanoTime();
        for (byte[] bytes : batches) {
            insertRowBinary(client, table, bytes);
        }
        return history.size() / ((System.nanoTime() - start) / 1e9);
    }

    /** Parse + encode + insert, all timed: the sink's cost if it inserted RowBinary. */
    private static double convertedRate(Client client, String table, HistoryRows history, int perInsert) throws Exception {
        HistoryRowBinary encoder = new HistoryRowBinary(RETENTION_DAYS);
        long start = System.nanoTime();
        long converting = 0;
        for (int from = 0; from < history.size(); from += perInsert) {
            long convertStart = System.nanoTime();
            for (int i = from; i < Math.min(history.size(), from + perInsert); i++) {
                encoder.add(history.json().get(i));
            }
            byte[] bytes = encoder.takeBytes();
            converting += System.nanoTime() - convertStart;
            insertRowBinary(client, table, bytes);
        }
        long total = System.nanoTime() - start;
        System.out.printf("  JSON->RowBinary: converting %.2f µs/row, %.0f%% of the time%n",
                converting / 1e3 / history.size(), 100.0 * converting / total);
        return history.size() / (total / 1e9);
    }

    private static void insertRowBinary(Client client, String table, byte[] bytes) throws Exception {
        client.insert(table, new ByteArrayInputStream(bytes), ClickHouseFormat.RowBinary)
                .get(INSERT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).close();
    }

    private static long count(Client client, String table) {
        return client.queryAll("SELECT count() AS n FROM " + table).get(0).getLong("n");
    }

    /**
     * The sink alone on fresh engines, without the rest of the bench: {@code SinkThroughput [rows] [runs]}.
     * Batch limits come from the SLUICE_SINK_BATCH_* environment variables, as in the processor.
     */
    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path work = Files.createTempDirectory("sluice-sink-bench-");
        try (EnginePair engines = EnginePair.start(work)) {
            Map<String, String> env = new HashMap<>(System.getenv());
            env.put(KafkaSettings.BOOTSTRAP_SERVERS.name(), engines.kafka().bootstrapServers());
            env.put(ClickHouseSettings.URL.name(), engines.clickHouse().httpUrl());
            env.put(ProcessorConfig.STATE_DIR.name(), work.resolve("processor").toString());
            env.put(Topics.PARTITIONS.name(), "4");
            ProcessorConfig config = ProcessorConfig.from(new Settings(env));
            TopicSetup.ensureTopics(config.kafka());
            System.out.println("sink limits: " + config.sinkLimits());
            HistoryRows history = HistoryRows.of(rows);
            String topic = produce(config.kafka(), history);
            for (int run = 1; run <= runs; run++) {
                SinkThroughput r = measure(config, history, topic, engines.clickHouse().pid());
                System.out.printf("run %d: %d rows: sink %.0f rows/s; ceilings JSONEachRow %.0f, RowBinary %.0f (50k/insert);"
                                + " ratio sink/JSONEachRow %.0f%%; at the sink's batch (%d): JSONEachRow %.0f, RowBinary %.0f, JSON->RowBinary %.0f (%.2fx);"
                                + " CPU per row: sink %s, JSONEachRow at the sink's batch %s%n",
                        run, rows, r.sink(), r.jsonEachRow(), r.rowBinary(), 100 * r.ratioToJsonEachRow(),
                        config.sinkLimits().batchRows(), r.jsonAtSinkBatch(), r.rowBinaryAtSinkBatch(), r.convertedAtSinkBatch(),
                        r.convertedAtSinkBatch() / r.jsonAtSinkBatch(), r.sinkCpu(), r.jsonAtSinkBatchCpu());
            }
        }
        Directories.deleteRecursively(work);
    }
}
