package io.sluice.bench.run;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import com.clickhouse.client.api.Client;

import io.sluice.bench.load.Wrk;
import io.sluice.bench.process.ChildJvm;
import io.sluice.bench.process.CpuWindow;
import io.sluice.bench.process.MemoryBudget;
import io.sluice.config.Aggregate;
import io.sluice.config.KafkaSettings;
import io.sluice.config.Setting;
import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.engines.Ports;
import io.sluice.gateway.GatewayConfig;
import io.sluice.gateway.GatewayMain;
import io.sluice.kafka.KafkaClients;
import io.sluice.processor.ProcessorConfig;
import io.sluice.processor.ProcessorMain;
import io.sluice.projects.ProjectAdmin;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;

/**
 * Sluice itself under load: the gateway in its own JVM with durable Kafka acks, warmed; the processor
 * in its own JVM, warmed on what the gateway's warm-up published; the gateway's runs while the
 * processor waits ({@link BacklogGate}); the processor on everything they published; then both
 * together: the rate the pipeline sustains, and freshness; last, one event at a time on the idle,
 * warm stack ({@link IdleLatency}).
 */
public final class PipelineRun {
    public static final List<Integer> CONNECTIONS = List.of(16, 64, 256);
    public static final int OVERLOAD_CONNECTIONS = 3 * CONNECTIONS.get(CONNECTIONS.size() - 1);
    /** Few enough connections that the whole pipeline keeps up on one small machine. */
    private static final int LIGHT_LOAD_CONNECTIONS = 4;
    /** Enough connections for a quarter of the gateway's best rate at a few milliseconds an answer. */
    private static final int COST_CONNECTIONS = 64;
    /** How long freshness waits for the processor to catch up with what ran before it. */
    private static final int DRAIN_SECONDS = 120;
    /** How long the processor may take to store what was sent before its backlog (it starts cold). */
    private static final int STORED_WITHIN_SECONDS = 300;
    /** How long the processor may take over the gateway's runs' backlog (at 1,000 records/s, 1.8M records). */
    private static final int BACKLOG_WITHIN_SECONDS = 1_800;

    private final Map<String, String> env;
    private final Wrk wrk;
    private final int seconds;
    private final ResultFiles files;
    private final boolean profile;
    private final PrintStream out;
    private final long clickHousePid;

    /**
     * @param profile       write JFR recordings of both children next to the results
     * @param clickHousePid the ClickHouse server's process, charged its part of the pipeline's CPU
     */
    public PipelineRun(Map<String, String> env, Wrk wrk, int seconds, ResultFiles files, boolean profile, PrintStream out,
                long clickHousePid) {
        this.clickHousePid = clickHousePid;
        this.env = Map.copyOf(env);
        this.wrk = wrk;
        this.seconds = seconds;
        this.files = files;
        this.profile = profile;
        this.out = out;
    }

    /** A gateway child, where to post transactions to it, and where to post envelopes authenticated by the DSN key in the query. */
    record Gateway(ChildJvm jvm, String url, String envelopeUrl) implements AutoCloseable {
        @Override
        public void close() {
            jvm.close();
        }
    }

    /** The gateway's runs at each number of connections, with the cores it used, gzip, the overload, and its peak RSS (KiB) after each. */
    private record GatewayRuns(Map<Integer, Wrk.Result> results, Map<Integer, Double> cores, Wrk.Result gzip, Wrk.Result overload,
                               long peakRss, long overloadRss) {
    }

    public PipelineResults measure(ProjectAdmin.NewProject project, List<byte[]> bodies, List<byte[]> gzipped) throws Exception {
        // The gateway's runs (each number of connections, gzip, the overload) must end before the broker aborts the gate.
        long gatewayRunsSeconds = (CONNECTIONS.size() + 2L) * seconds + 60;
        if (gatewayRunsSeconds >= BacklogGate.LONGEST.toSeconds()) {
            throw new IllegalArgumentException("--seconds " + seconds + " makes the gateway's runs last about " + gatewayRunsSeconds
                    + " s, longer than the broker keeps the processor's backlog held (" + BacklogGate.LONGEST.toSeconds()
                    + " s): at most " + (BacklogGate.LONGEST.toSeconds() - 61) / (CONNECTIONS.size() + 2) + " s a run");
        }
        Settings settings = new Settings(env);
        // What the children see: this JVM's environment, and the run's settings over it.
        Settings childSettings = Settings.fromEnvironment().with(env);
        ClickHouseSettings clickHouse = ClickHouseSettings.from(settings);
        KafkaSettings kafka = KafkaSettings.from(settings);
        out.println("· the gateway (its own JVM), durable Kafka acks");
        try (Gateway gateway = startGateway(project, Map.of(), "gateway", profile)) {
            String url = gateway.url();
            out.println("  warmed: " + Wrk.warmUpLine(wrk.warmUp(url, project.key(), bodies, seconds)));
            long warmUp = records(publishedEndOffsets(kafka));
            PipelineResults withRoutes;
            try (ChildJvm processor = child(ProcessorMain.class, "processor", env, profile);
                 ProcessorLag lag = new ProcessorLag(kafka, ProcessorConfig.from(childSettings).applicationId())) {
                // Its JVM starts cold: the gateway's warm-up is its first backlog, untimed, so that its rate is
                // measured warm, as the Kafka Streams copy's is in this JVM.
                double warming = ProcessorThroughput.awaitStored(processor, clickHouse, warmUp, STORED_WITHIN_SECONDS);
                out.printf("· the processor (its own JVM) warmed: it worked off the gateway's warm-up, %,d records, in %.0f s, untimed%n",
                        warmUp, warming);
                long recordsBefore = records(publishedEndOffsets(kafka));
                ProcessorThroughput.awaitStored(processor, clickHouse, recordsBefore, STORED_WITHIN_SECONDS);

                out.println("· the gateway's runs; the processor waits behind an open transaction on the raw topic until they end");
                CpuWindow held = CpuWindow.start(processor);
                GatewayRuns runs;
                long gateOffsets;
                try (BacklogGate gate = BacklogGate.hold(kafka, kafka.topics().transactions())) {
                    runs = gatewayRuns(gateway, project, bodies, gzipped);
                    gateOffsets = gate.open();
                }
                out.printf("  the processor used %.2f cores while it waited%n", held.coresUsed());
                Wrk.Result overload = runs.overload();

                out.println("· the processor on everything the gateway's runs published");
                Map<Integer, Long> publishedEndOffsets = publishedEndOffsets(kafka);
                PipelineResults.Backlog backlog = new PipelineResults.Backlog(recordsBefore,
                        records(publishedEndOffsets) - gateOffsets - recordsBefore);
                ProcessorThroughput.Result measured = ProcessorThroughput.measure(processor, clickHouse, backlog,
                        BACKLOG_WITHIN_SECONDS);
                long processorBacklogRss = processor.peakRssKb();
                out.printf("  processor: %,.0f records/s working off %,d records on %.2f cores, peak RSS %,d MB%n",
                        measured.recordsPerSecond(), backlog.records(), measured.cores(), processorBacklogRss / 1024);

                double best = Math.max(overload.requestsPerSecond(), runs.results().values().stream()
                        .mapToDouble(Wrk.Result::requestsPerSecond).max().orElse(0));
                double upper = Math.min(best, measured.recordsPerSecond());
                PipelineCost.Result cost = cost(gateway, processor, project, bodies, PipelineCost.rate(upper), kafka,
                        clickHouse);
                out.printf("· the sustained rate: gateway and processor together, fixed rates up to %,.0f events/s,"
                        + " until the processor's lag grows%n", upper);
                SustainedRate.Result sustained = SustainedRate.measure(
                        (rate, runSeconds) -> wrk.run(url, project.key(), bodies, false, SustainedRate.CONNECTIONS, runSeconds, rate),
                        lag, gateway.jvm(), processor, upper, seconds, out);
                drainBefore(lag, "freshness");

                double halfSustained = sustained.eventsPerSecond() / 2;
                out.printf("· freshness: 2xx to visible in traffic_1m, at half the sustained rate (%,.0f events/s)%n", halfSustained);
                LoadedFreshness sustainedFreshness = withLagPrinted(lag, () -> LoadedFreshness.measure(wrk, url, project.key(), bodies,
                        SustainedRate.CONNECTIONS, Math.max(1, halfSustained), seconds, clickHouse, kafka, "fresh-sustained-"));
                drainBefore(lag, "freshness");

                // The gateway is latency-bound, so its rate grows with connections: about half the
                // best rate needs about half the connections of the best run.
                int bestConnections = overload.requestsPerSecond() >= best ? OVERLOAD_CONNECTIONS
                        : CONNECTIONS.get(CONNECTIONS.size() - 1);
                int halfRateConnections = Math.max(1, bestConnections / 2);
                out.println("· freshness under " + halfRateConnections + " connections of load (about half the gateway's best)");
                LoadedFreshness freshness = withLagPrinted(lag, () -> LoadedFreshness.measure(wrk, url, project.key(), bodies,
                        halfRateConnections, seconds, clickHouse, kafka, "fresh-half-"));
                drainBefore(lag, "freshness");
                out.println("· freshness under light load (" + LIGHT_LOAD_CONNECTIONS + " connections)");
                LoadedFreshness lightFreshness = withLagPrinted(lag, () -> LoadedFreshness.measure(wrk, url, project.key(), bodies,
                        LIGHT_LOAD_CONNECTIONS, seconds, clickHouse, kafka, "fresh-light-"));
                drainBefore(lag, "the idle latency");
                // Last, once minutes of load have compiled the gateway's, the broker's and the
                // processor's paths: a production stack that has been idle a while is warm, and a
                // gateway a few seconds old answers a lone request two to three times slower.
                out.printf("· latency on the idle stack, after the runs above: one event at a time, each kind after %d s of"
                        + " the same%n", IdleLatency.WARM_SECONDS);
                IdleLatency.Result idle = IdleLatency.measure(wrk, url, project.key(), bodies, gateway.envelopeUrl(),
                        IdleLatency.WARM_SECONDS, IdleLatency.SECONDS);
                IdleLatency.lines(idle).forEach(line -> out.println("  " + line));
                withRoutes = new PipelineResults(runs.results(), runs.gzip(), overload, runs.peakRss(), runs.overloadRss(),
                        publishedEndOffsets, measured.recordsPerSecond(), processorBacklogRss, processor.peakRssKb(), best, freshness,
                        lightFreshness, runs.cores(), measured.cores(), sustained, sustainedFreshness,
                        MemoryBudget.processor(childSettings), cost, backlog, idle, null);
            }
            return withRoutes.with(withoutRoutes(gateway, project, bodies, withRoutes.backlog(), withRoutes.sustained().upperPerSecond()));
        }
    }

    /** The gateway alone at each number of connections, with gzip bodies, and overloaded. */
    private GatewayRuns gatewayRuns(Gateway gateway, ProjectAdmin.NewProject project, List<byte[]> bodies, List<byte[]> gzipped)
            throws Exception {
        String url = gateway.url();
        Map<Integer, Wrk.Result> results = new LinkedHashMap<>();
        Map<Integer, Double> cores = new LinkedHashMap<>();
        for (int connections : CONNECTIONS) {
            CpuWindow cpu = CpuWindow.start(gateway.jvm());
            results.put(connections, wrk.run(url, project.key(), bodies, false, connections, seconds));
            cores.put(connections, cpu.coresUsed());
            printRun(connections + " connections", results.get(connections));
            out.printf("  %d connections: %.2f cores%n", connections, cores.get(connections));
        }
        Wrk.Result gzip = wrk.run(url, project.key(), gzipped, true, 64, seconds);
        printRun("gzip bodies, 64 connections", gzip);
        long peakRss = gateway.jvm().peakRssKb();
        Wrk.Result overload = wrk.run(url, project.key(), bodies, false, OVERLOAD_CONNECTIONS, seconds);
        long overloadRss = gateway.jvm().peakRssKb();
        printRun("3x overload, " + OVERLOAD_CONNECTIONS + " connections", overload);
        out.printf("  gateway peak RSS %,d MB at full load, %,d MB after the overload%n", peakRss / 1024, overloadRss / 1024);
        return new GatewayRuns(results, cores, gzip, overload, peakRss, overloadRss);
    }

    /**
     * The like for like for the per-route aggregates: the same gateway, and a processor without
     * them ({@code SLUICE_PROCESSOR_REQUESTS_BY_ROUTE=false}) on the same raw topic, isolated from the first by its own
     * application id, output topics and database: its rate working off the same backlog through
     * ClickHouse, then the pipeline's sustained rate searched up to the same bound. It runs second,
     * after the other's inserts, so ClickHouse's background merges, if any, weigh on it and not on
     * the processor with them.
     */
    private PipelineResults.WithoutRoutes withoutRoutes(Gateway gateway, ProjectAdmin.NewProject project, List<byte[]> bodies,
                                                        PipelineResults.Backlog backlog, double upper) throws Exception {
        out.println("· the same processor without the transactions' per-route aggregates, on the same raw topic: its backlog rate,"
                + " then the sustained rate");
        Map<String, String> variantEnv = new HashMap<>(env);
        String prefix = "bench.no-routes.";
        List<Setting> topics = new ArrayList<>(List.of(Topics.ERRORS, Topics.HISTORY, Topics.ERROR_HISTORY, Topics.DEAD_LETTERS));
        Aggregate.ALL.forEach(aggregate -> topics.add(aggregate.topic()));
        for (Setting topic : topics) {
            variantEnv.put(topic.name(), prefix + topic.defaultValue());
        }
        variantEnv.put(ProcessorConfig.REQUESTS_BY_ROUTE.name(), "false");
        variantEnv.put(ProcessorConfig.APPLICATION_ID.name(), "sluice-processor-no-routes");
        variantEnv.put(ProcessorConfig.STATE_DIR.name(), env.get(ProcessorConfig.STATE_DIR.name()) + "-no-routes");
        variantEnv.put(ClickHouseSettings.DATABASE.name(), "sluice_no_routes");
        Settings variantSettings = Settings.fromEnvironment().with(variantEnv);
        KafkaSettings kafka = KafkaSettings.from(variantSettings);
        try (ChildJvm processor = child(ProcessorMain.class, "processor-no-routes", variantEnv, false);
             ProcessorLag lag = new ProcessorLag(kafka, ProcessorConfig.from(variantSettings).applicationId())) {
            // Its JVM starts cold too: what came before the backlog warms it, untimed, as it warmed the first.
            ProcessorThroughput.Result measured = ProcessorThroughput.measure(processor, ClickHouseSettings.from(variantSettings), backlog,
                    BACKLOG_WITHIN_SECONDS);
            drainBefore(lag, "freshness"); // the records the first processor's runs added after the backlog
            out.printf("· the sustained rate without them: fixed rates up to %,.0f events/s%n", upper);
            SustainedRate.Result sustained = SustainedRate.measure(
                    (rate, runSeconds) -> wrk.run(gateway.url(), project.key(), bodies, false, SustainedRate.CONNECTIONS, runSeconds, rate),
                    lag, gateway.jvm(), processor, upper, seconds, out);
            return new PipelineResults.WithoutRoutes(measured.recordsPerSecond(), sustained);
        }
    }

    /** The bench's first figure ({@link PipelineCost}), printed as soon as it is measured. */
    private PipelineCost.Result cost(Gateway gateway, ChildJvm processor, ProjectAdmin.NewProject project, List<byte[]> bodies, double rate,
                                     KafkaSettings kafka, ClickHouseSettings clickHouse) throws Exception {
        out.printf("· CPU per event: %d s idle, then %,.0f events/s for %d s until all are stored%n", PipelineCost.IDLE_SECONDS,
                rate, seconds);
        try (Admin admin = Admin.create(KafkaClients.adminProperties(kafka, "sluice-bench-cost"));
             Client client = ClickHouseClients.create(clickHouse)) {
            PipelineCost.Result cost = PipelineCost.of(gateway.jvm(), processor, clickHousePid).measure(
                    (r, runSeconds) -> wrk.run(gateway.url(), project.key(), bodies, false, COST_CONNECTIONS, runSeconds, r),
                    rate, seconds, admin, kafka.topics().transactions(), client, clickHouse.database());
            PipelineCost.print(cost, out);
            return cost;
        }
    }

    private void printRun(String name, Wrk.Result run) {
        out.printf("  %s: %,.0f req/s, p50 %.2f ms, p99 %.2f ms, non-2xx %d%n", name, run.requestsPerSecond(), run.p50Millis(),
                run.p99Millis(), run.non2xx());
    }

    /**
     * Waits until the processor has worked off what the run before left (a step that fell behind
     * leaves tens of thousands of records), so {@code next} measures the load it runs under, not a
     * backlog; says how far it got.
     */
    private void drainBefore(ProcessorLag lag, String next) throws Exception {
        long started = System.nanoTime();
        long left = SustainedRate.drain(lag, SustainedRate.AT_REST, DRAIN_SECONDS);
        out.printf("  processor lag before %s: %,d records after %.0f s of waiting%s%n", next, left,
                (System.nanoTime() - started) / 1e9, left > SustainedRate.AT_REST ? " (NOT caught up: " + next + " includes that backlog)" : "");
    }

    /**
     * Runs a freshness measurement while sampling the processor's lag each half second, split into
     * the raw topics and the repartition topics, and prints mean and max of each: where a marker
     * waited (behind raw records, or behind the counting stage's input).
     */
    private LoadedFreshness withLagPrinted(ProcessorLag lag, Callable<LoadedFreshness> measurement)
            throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        List<long[]> samples = Collections.synchronizedList(new ArrayList<>());
        Thread sampler = new Thread(() -> {
            while (running.get()) {
                try {
                    long repartition = lag.records(topic -> topic.endsWith("-repartition"));
                    long raw = lag.records(topic -> !topic.endsWith("-repartition"));
                    samples.add(new long[] {raw, repartition});
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                } catch (Exception retry) {
                    // a sample lost is a sample fewer
                }
            }
        }, "freshness-lag-sampler");
        sampler.start();
        try {
            LoadedFreshness measured = measurement.call();
            Freshness.Result f = measured.freshness();
            out.printf("  freshness p50 %.0f ms, p99 %.0f ms (%d markers, load %,.0f req/s); to the count in the traffic topic "
                    + "p50 %.0f ms, p99 %.0f ms%n", f.p50Millis(), f.p99Millis(), f.markers(), measured.loadRequestsPerSecond(),
                    f.countedP50Millis(), f.countedP99Millis());
            return measured;
        } finally {
            running.set(false);
            sampler.interrupt();
            sampler.join(5_000);
            synchronized (samples) {
                out.printf("  processor lag during it (%d samples): raw topics mean %,.0f max %,d; repartition topics mean %,.0f max %,d records%n",
                        samples.size(), samples.stream().mapToLong(x -> x[0]).average().orElse(0),
                        samples.stream().mapToLong(x -> x[0]).max().orElse(0),
                        samples.stream().mapToLong(x -> x[1]).average().orElse(0),
                        samples.stream().mapToLong(x -> x[1]).max().orElse(0));
            }
        }
    }

    /**
     * Starts a gateway child with these settings over the run's and waits until it is ready.
     *
     * @param name names its log (and recording) in the results folder
     */
    Gateway startGateway(ProjectAdmin.NewProject project, Map<String, String> overrides, String name, boolean record)
            throws Exception {
        int gatewayPort = Ports.free();
        int adminPort = Ports.free();
        Map<String, String> gatewayEnv = new HashMap<>(env);
        gatewayEnv.putAll(overrides);
        gatewayEnv.put(GatewayConfig.PORT.name(), Integer.toString(gatewayPort));
        gatewayEnv.put(GatewayConfig.ADMIN_PORT.name(), Integer.toString(adminPort));
        ChildJvm jvm = child(GatewayMain.class, name, gatewayEnv, record);
        try {
            jvm.awaitReady(adminPort);
        } catch (RuntimeException | InterruptedException e) {
            jvm.close();
            throw e;
        }
        String origin = "http://127.0.0.1:" + gatewayPort;
        return new Gateway(jvm, origin + "/api/v1/" + project.token() + "/transaction", origin + "/api/" + project.numericId()
                + "/envelope/?sentry_key=" + project.dsnKey().publicKey() + "&sentry_version=7&sentry_client=sentry.javascript.node%2F8.40.0");
    }

    private ChildJvm child(Class<?> mainClass, String name, Map<String, String> childEnv, boolean record) throws Exception {
        Optional<Path> recording = record ? Optional.of(files.recording(name)) : Optional.empty();
        return ChildJvm.start(mainClass, childEnv, files.log(name), recording, out);
    }

    /** The sum of a topic's end offsets: its records, where no transaction wrote (a marker or an aborted record takes an offset too). */
    private static long records(Map<Integer, Long> endOffsets) {
        return endOffsets.values().stream().mapToLong(Long::longValue).sum();
    }

    /** What the gateway published: the end offsets of the transactions topic, by partition. */
    private static Map<Integer, Long> publishedEndOffsets(KafkaSettings kafka) {
        try (var consumer = new KafkaConsumer<byte[], byte[]>(KafkaClients.consumerProperties(kafka, null),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            var partitions = consumer.partitionsFor(kafka.topics().transactions()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            Map<Integer, Long> ends = new HashMap<>();
            consumer.endOffsets(partitions).forEach((partition, end) -> ends.put(partition.partition(), end));
            return ends;
        }
    }
}
