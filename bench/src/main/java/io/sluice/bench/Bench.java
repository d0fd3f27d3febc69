package io.sluice.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.sluice.bench.ceiling.BareNettyCeiling;
import io.sluice.bench.ceiling.InsertCeilings;
import io.sluice.bench.ceiling.ProducerCeiling;
import io.sluice.bench.ceiling.StreamsCeiling;
import io.sluice.bench.load.Payloads;
import io.sluice.bench.load.Wrk;
import io.sluice.bench.process.CpuWindow;
import io.sluice.bench.report.BenchReport;
import io.sluice.bench.report.BenchResults;
import io.sluice.bench.run.BenchStages;
import io.sluice.bench.run.PipelineResults;
import io.sluice.bench.run.PipelineRun;
import io.sluice.bench.run.ProducerExperiments;
import io.sluice.bench.run.ResultFiles;
import io.sluice.bench.run.SinkThroughput;
import io.sluice.bench.scenario.HugeTenant;
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
 * and reports the ratios — gateway vs a bare Netty server (same load generator, same bodies), the
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
            List<byte[]> bodies = Payloads.transactionsWithoutEventIds(Payloads.VARIED);
            List<byte[]> gzipped = Payloads.gzip(bodies);
            Map<String, Object> machine = Map.of("cores", Runtime.getRuntime().availableProcessors(), "bodies", bodies.size(),
                    "body_bytes", meanBytes(bodies), "gzip_bytes", meanBytes(gzipped), "seconds_per_run", seconds);

            BenchStages stages = new BenchStages(out);
            BareNettyCeiling.Result bareNetty = stages.run("ceiling: a bare Netty server answering 200",
                    () -> BareNettyCeiling.measure(wrk, bodies, PipelineRun.CONNECTIONS, seconds),
                    ceiling -> "req/s by connections: " + requestsPerSecond(ceiling.runs()) + "; CPU per request: "
                            + microsPerRequest(ceiling.runs(), ceiling.cores()));
            Map<Integer, Wrk.Result> nettyCeiling = bareNetty == null ? null : bareNetty.runs();
            PipelineRun run = new PipelineRun(env, wrk, seconds, files, profile, out, engines.clickHouse().pid());
            PipelineResults pipeline = stages.run("the gateway and the processor", () -> run.measure(project, bodies, gzipped),
                    p -> String.format("gateway req/s by connections: %s; processor %,.0f records/s; sustained %,.0f events/s",
                            requestsPerSecond(p.gateway()), p.processorRate(), p.sustained().eventsPerSecond()));
            Double producerCeiling = stages.run("ceiling: the Kafka producer alone",
                    () -> ProducerCeiling.measure(kafka, Payloads.transactions(Payloads.VARIED), seconds), Bench::recordsPerSecond);
            StreamsCeiling.Rate streamsCeiling = stages.run("ceiling: Kafka Streams copying the raw topic, exactly once, nothing else",
                    () -> StreamsCeiling.copy(ProcessorConfig.from(settings), kafka.topics().transactions(),
                            pipeline.published(), work.resolve("streams-ceiling")),
                    copy -> String.format("%s, %.1f µs of CPU a record (its threads)", recordsPerSecond(copy.recordsPerSecond()),
                            copy.cpuMicrosPerRecord()));
            Double streamsShapeCeiling = stages.run(
                    "ceiling: Kafka Streams in the processor's shape (first sighting, history, repartition, count), no parsing",
                    () -> StreamsCeiling.processorShape(ProcessorConfig.from(settings), kafka.topics().transactions(),
                            pipeline.publishedEndOffsets(), work.resolve("streams-shape-ceiling")), Bench::recordsPerSecond);
            Double processorAlone = stages.run("the processor's own topology in this JVM, without its sink, over the records it worked off",
                    () -> StreamsCeiling.processorAlone(ProcessorConfig.from(settings), kafka.topics().transactions(),
                            pipeline.publishedEndOffsets(), work.resolve("processor-alone")), Bench::recordsPerSecond);
            Double processorAloneWithoutPerRoute = stages.run(
                    "the same without the transactions' per-route aggregates (requests_1m, requests_1h): what they cost",
                    () -> StreamsCeiling.processorAlone(ProcessorConfig.from(settings.with(
                                    Map.of(ProcessorConfig.REQUESTS_BY_ROUTE.name(), "false"))), kafka.topics().transactions(),
                            pipeline.publishedEndOffsets(), work.resolve("processor-alone-no-routes")),
                    rate -> String.format("%,.0f records/s: with them %.0f%% of the rate without", rate, 100 * processorAlone / rate));
            List<HugeTenant.Result> tenants = stages.run("the processor's own topology again: one tenant at 90% of the traffic, "
                            + "then as many transactions over " + HugeTenant.SMALL_PROJECTS + " tenants evenly",
                    () -> HugeTenant.measure(ProcessorConfig.from(settings), HugeTenant.RECORDS, work),
                    results -> results.stream().map(result -> String.format("%s: %,.0f records/s", result.shape(), result.recordsPerSecond()))
                            .collect(java.util.stream.Collectors.joining("; ")));
            InsertCeilings insertCeilings = stages.run("ceiling: bulk inserts into ClickHouse, RowBinary and JSONEachRow",
                    () -> InsertCeilings.measure(ClickHouseSettings.from(settings), (int) Math.min(pipeline.published(), 200_000)),
                    ceilings -> String.format("RowBinary %,.0f rows/s, JSONEachRow %,.0f rows/s", ceilings.rowBinary(),
                            ceilings.jsonEachRow()));
            SinkThroughput sink = stages.run("the sink alone: history rows from Kafka into ClickHouse, vs inserting the same rows",
                    () -> SinkThroughput.measure(ProcessorConfig.from(settings), 200_000, engines.clickHouse().pid()),
                    measured -> String.format("%,.0f rows/s, JSONEachRow insert of the same rows %,.0f rows/s; CPU per row %.1f µs,"
                                    + " inserting them directly %.1f µs", measured.sink(), measured.jsonEachRow(),
                            measured.sinkCpu().total(), measured.jsonAtSinkBatchCpu().total()));
            List<ProducerExperiments.Variant> experiments = producerExperiments
                    ? stages.run("the gateway with other producer settings", () -> ProducerExperiments.measure(run, wrk, project, bodies,
                            seconds, pipeline.sustained().eventsPerSecond() > 0 ? pipeline.sustained().eventsPerSecond() / 2
                                    : ProducerExperiments.DEFAULT_PACED_RATE, out), variants -> variants.size() + " variants")
                    : List.of();

            new BenchReport(out).write(new BenchResults(machine, nettyCeiling, bareNetty == null ? null : bareNetty.cores(), pipeline, producerCeiling,
                    streamsCeiling == null ? null : streamsCeiling.recordsPerSecond(),
                    streamsCeiling == null ? null : streamsCeiling.cpuMicrosPerRecord(), streamsShapeCeiling,
                    insertCeilings, sink, experiments, processorAlone, processorAloneWithoutPerRoute, tenants,
                    kafka.topics().partitions(), stages.failure()), files);
            stages.throwIfFailed();
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

    private static long meanBytes(List<byte[]> bodies) {
        return Math.round(bodies.stream().mapToInt(body -> body.length).average().orElse(0));
    }

    private static String recordsPerSecond(double rate) {
        return String.format("%,.0f records/s", rate);
    }

    private static String microsPerRequest(Map<Integer, Wrk.Result> runs, Map<Integer, Double> cores) {
        StringBuilder text = new StringBuilder();
        runs.forEach((connections, result) -> text.append(text.isEmpty() ? "" : ", ")
                .append(String.format("%d: %.1f µs", connections, CpuWindow.microsPerEvent(cores.get(connections),
                        result.requestsPerSecond()))));
        return text.toString();
    }

    private static String requestsPerSecond(Map<Integer, Wrk.Result> runs) {
        StringBuilder text = new StringBuilder();
        runs.forEach((connections, result) -> text.append(text.isEmpty() ? "" : ", ")
                .append(String.format("%d: %,.0f", connections, result.requestsPerSecond())));
        return text.toString();
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
