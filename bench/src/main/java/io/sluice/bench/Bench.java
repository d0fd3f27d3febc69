package io.sluice.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.engines.Directories;
import io.sluice.engines.EnginePair;
import io.sluice.kafka.TopicSetup;
import io.sluice.processor.ProcessorConfig;
import io.sluice.projects.ProjectAdmin;
import io.sluice.sink.ClickHouseSettings;

/**
 * {@code ./sluice bench}: measures Sluice on this machine against ceilings measured in the same run,
 * and reports the ratios — gateway vs a bare Netty server (same load generator, same body), the
 * Kafka producer alone, the processor vs bulk-inserting the same rows into ClickHouse, vs Kafka
 * Streams copying the raw topic and doing the processor's Kafka work without parsing, and the
 * gateway's memory at full load and under 3× overload.
 * This class only puts the run in order; each measurement is a class of its own.
 */
public final class Bench {
    private final PrintStream out;
    private final int seconds;
    private final boolean profile;
    private final boolean producerExperiments;
    private final ResultFiles files;

    /**
     * @param profile             record a JFR profile of the gateway and the processor next to the results
     * @param producerExperiments also measure the gateway with other producer settings ({@link ProducerExperiments})
     * @param files               where the run writes; this JVM's log (Logback) is expected at {@link ResultFiles#log()}
     */
    public Bench(PrintStream out, int seconds, boolean profile, boolean producerExperiments, ResultFiles files) {
        this.out = out;
        this.seconds = seconds;
        this.profile = profile;
        this.producerExperiments = producerExperiments;
        this.files = files;
    }

    public void run() throws Exception {
        Wrk.ensureInstalled();
        Path work = Files.createTempDirectory("sluice-bench-");
        Wrk wrk = new Wrk(work);
        out.println("· logs (Kafka, Kafka Streams, and next to it the gateway's, the processor's and ClickHouse's): "
                + files.log());
        out.println("· starting Kafka and ClickHouse in " + work);
        try (EnginePair engines = EnginePair.start(work)) {
            Map<String, String> env = environment(engines.kafka().bootstrapServers(), engines.clickHouse().httpUrl(), work);
            // What the gateway and processor children see (they inherit this environment): the
            // in-process ceilings then run with any SLUICE_PROCESSOR_* or SLUICE_KAFKA_PROPERTY_* given.
            Settings settings = Settings.fromEnvironment().with(env);
            KafkaSettings kafka = KafkaSettings.from(settings);
            TopicSetup.ensureTopics(kafka);
            ProjectAdmin.NewProject project;
            try (ProjectAdmin admin = new ProjectAdmin(kafka)) {
                project = admin.create("bench");
            }
            byte[] body = Payloads.transaction();
            byte[] gzipped = Payloads.gzip(body);
            Map<String, Object> machine = Map.of("cores", Runtime.getRuntime().availableProcessors(), "body_bytes", body.length,
                    "gzip_bytes", gzipped.length, "seconds_per_run", seconds);

            out.println("· ceiling: a bare Netty server answering 200");
            Map<Integer, Wrk.Result> nettyCeiling = BareNettyCeiling.measure(wrk, body, PipelineRun.CONNECTIONS, seconds);
            PipelineRun run = new PipelineRun(env, wrk, seconds, files, profile, out);
            PipelineResults pipeline = run.measure(project, body, gzipped);
            out.println("· ceiling: the Kafka producer alone");
            double producerCeiling = ProducerCeiling.measure(kafka, body, seconds);
            out.println("· ceiling: Kafka Streams copying the raw topic, exactly once, nothing else");
            double streamsCeiling = StreamsCeiling.copy(ProcessorConfig.from(settings), kafka.topics().transactions(),
                    pipeline.published(), work.resolve("streams-ceiling"));
            out.println("· ceiling: Kafka Streams in the processor's shape (first sighting, history, repartition, count), no parsing");
            double streamsShapeCeiling = StreamsCeiling.processorShape(ProcessorConfig.from(settings),
                    kafka.topics().transactions(), pipeline.publishedEndOffsets(), work.resolve("streams-shape-ceiling"));
            out.println("· the processor's own topology in this JVM, without its sink, over the records it worked off");
            double processorAlone = StreamsCeiling.processorAlone(ProcessorConfig.from(settings),
                    kafka.topics().transactions(), pipeline.publishedEndOffsets(), work.resolve("processor-alone"));
            out.printf("  %,.0f records/s%n", processorAlone); // now: a later stage's failure must not lose it
            out.println("· the same without the transactions' per-route aggregates (requests_1m, requests_1h): what they cost");
            double processorAloneWithoutPerRoute = StreamsCeiling.processorAlone(ProcessorConfig.from(settings),
                    kafka.topics().transactions(), pipeline.publishedEndOffsets(), work.resolve("processor-alone-no-routes"), false);
            out.printf("  %,.0f records/s: with them %.0f%% of the rate without%n", processorAloneWithoutPerRoute,
                    100 * processorAlone / processorAloneWithoutPerRoute);
            out.println("· the processor's own topology again: one tenant at 90% of the traffic, then as many transactions over "
                    + HugeTenant.SMALL_PROJECTS + " tenants evenly");
            List<HugeTenant.Result> tenants = HugeTenant.measure(ProcessorConfig.from(settings), HugeTenant.RECORDS, work);
            out.println("· ceiling: bulk inserts into ClickHouse, RowBinary and JSONEachRow");
            InsertCeilings insertCeilings = InsertCeilings.measure(ClickHouseSettings.from(settings),
                    (int) Math.min(pipeline.published(), 200_000));

            out.println("· the sink alone: history rows from Kafka into ClickHouse, vs inserting the same rows");
            SinkThroughput sink = SinkThroughput.measure(ProcessorConfig.from(settings), 200_000);

            double halfSustained = pipeline.sustained().eventsPerSecond() / 2;
            List<ProducerExperiments.Variant> experiments = producerExperiments
                    ? ProducerExperiments.measure(run, wrk, project, body, seconds,
                            halfSustained > 0 ? halfSustained : ProducerExperiments.DEFAULT_PACED_RATE, out)
                    : List.of();

            new BenchReport(out).write(new BenchResults(machine, nettyCeiling, pipeline, producerCeiling, streamsCeiling, streamsShapeCeiling,
                    insertCeilings, sink, experiments, processorAlone, processorAloneWithoutPerRoute, tenants,
                    kafka.topics().partitions()), files);
        } finally {
            Path clickHouseLog = work.resolve("clickhouse.log");
            if (Files.exists(clickHouseLog)) {
                Files.copy(clickHouseLog, files.log("clickhouse"), StandardCopyOption.REPLACE_EXISTING);
            }
            files.dropEmptyChildLogs();
        }
        // Gigabytes of Kafka and ClickHouse data; kept (with the logs) only when the run failed.
        Directories.deleteRecursively(work);
    }

    /** The settings of the gateway and processor under test (their children get them as environment variables). */
    private static Map<String, String> environment(String bootstrap, String clickHouseUrl, Path work) {
        Map<String, String> env = new HashMap<>();
        env.put(KafkaSettings.BOOTSTRAP_SERVERS.name(), bootstrap);
        env.put(ClickHouseSettings.URL.name(), clickHouseUrl);
        env.put(ProcessorConfig.STATE_DIR.name(), work.resolve("processor").toString());
        env.put(ProcessorConfig.ADMIN_PORT.name(), "0");
        env.put(Topics.PARTITIONS.name(), "4");
        return env;
    }
}
