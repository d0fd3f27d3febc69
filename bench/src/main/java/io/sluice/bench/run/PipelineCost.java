package io.sluice.bench.run;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;

import com.clickhouse.client.api.Client;

import io.sluice.bench.load.Wrk;
import io.sluice.bench.process.ChildJvm;
import io.sluice.bench.process.CpuClock;
import io.sluice.bench.process.CpuPerEvent;
import io.sluice.bench.process.CpuSample;

/**
 * The bench's first figure: CPU per event of the whole pipeline and of each component, and the Kafka
 * records and bytes written per event. The pipeline is the gateway's and the processor's JVMs, the
 * broker (in the bench's JVM, by its threads' names) and ClickHouse. Each is charged its CPU from the
 * start of a fixed-rate load until the last of its events is stored and counted in ClickHouse, less
 * what it burns idle, measured over {@link #IDLE_SECONDS} just before.
 */
public final class PipelineCost {
    /**
     * How long the idle rate is measured, with the processor caught up and nothing sent: a figure of its own,
     * so long enough that /proc's 10 ms ticks are 0.1% of a core.
     */
    public static final int IDLE_SECONDS = 10;
    /**
     * The load's rate, the same in every run: the per-second costs (commits, inserts, heartbeats) are
     * shared by as many events each time, so runs compare (at a quarter of each run's upper bound,
     * three quiet runs measured at 2,882 to 5,763 events/s, and 301 to 555 µs an event).
     */
    static final double RATE = 5_000;

    /** {@link #RATE}, or half the run's upper bound where that is less: a rate the pipeline keeps up with, so every event is charged once. */
    static double rate(double upper) {
        return Math.min(RATE, upper / 2);
    }
    /** How long the stored events may take to reach ClickHouse after the load. */
    private static final long STORED_WITHIN_SECONDS = 180;

    /** The pipeline's processes as its figures name them, and as a reader does. */
    public static final List<String> PROCESSES = List.of("gateway", "processor", "broker", "clickhouse");
    private static final List<String> PROCESS_NAMES = List.of("gateway", "processor", "broker", "ClickHouse");

    static final List<CpuClock.Component> GATEWAY = List.of(
            new CpuClock.Component("gateway: event loops", List.of("multiThreadIoEv")),
            new CpuClock.Component("gateway: read workers", List.of("sluice-read-")),
            new CpuClock.Component("gateway: Kafka producer I/O", List.of("kafka-producer-")));
    static final List<CpuClock.Component> BROKER = List.of(
            new CpuClock.Component("broker: request handlers", List.of("data-plane-kafka-request-handler")),
            new CpuClock.Component("broker: network threads", List.of("data-plane-kafka-network-thread",
                    "data-plane-kafka-socket-acceptor")));
    static final List<CpuClock.Component> PROCESSOR = List.of(
            new CpuClock.Component("processor: stream threads", List.of("sluice-processo")),
            new CpuClock.Component("processor: Kafka producers", List.of("kafka-producer-")),
            new CpuClock.Component("processor: ClickHouse sink", List.of("sluice-clickhou")));

    /**
     * @param cpu              µs of CPU per event, by component
     * @param kafka            records and bytes the broker wrote per event
     * @param offeredPerSecond the load's fixed rate
     * @param load             what the load generator saw
     */
    public record Result(CpuPerEvent cpu, KafkaWrites kafka, double offeredPerSecond, Wrk.Result load) {
    }

    private final List<CpuClock> clocks;

    private PipelineCost(List<CpuClock> clocks) {
        this.clocks = clocks;
    }

    static PipelineCost of(ChildJvm gateway, ChildJvm processor, long clickHousePid) {
        return new PipelineCost(List.of(CpuClock.of("gateway", gateway.pid(), GATEWAY), CpuClock.ofThisJvm("broker", BROKER),
                CpuClock.of("processor", processor.pid(), PROCESSOR), CpuClock.of("clickhouse", clickHousePid, List.of())));
    }

    /** With the processor caught up: the idle rate, then {@code seconds} of load at {@code rate} until it is all stored. */
    Result measure(SustainedRate.Load load, double rate, int seconds, Admin admin, String rawTopic, Client clickHouse,
                   String database) throws Exception {
        CpuSample idleStart = sample();
        Thread.sleep(TimeUnit.SECONDS.toMillis(IDLE_SECONDS));
        CpuSample idleEnd = sample();
        KafkaWrites.Logs before = KafkaWrites.Logs.read(admin);
        long storedBefore = ProcessorThroughput.stored(clickHouse, database).both();
        CpuSample start = sample();
        Wrk.Result loaded = load.run(rate, seconds);
        long events = KafkaWrites.Logs.read(admin).endOffsets().get(rawTopic) - before.endOffsets().get(rawTopic);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STORED_WITHIN_SECONDS);
        while (ProcessorThroughput.stored(clickHouse, database).both() < storedBefore + events) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(events + " events were not all stored within " + STORED_WITHIN_SECONDS + " s");
            }
            Thread.sleep(100);
        }
        CpuSample end = sample();
        return new Result(CpuPerEvent.of(idleStart, idleEnd, start, end, events),
                KafkaWrites.between(before, KafkaWrites.Logs.read(admin), events), rate, loaded);
    }

    private CpuSample sample() {
        Map<String, Double> seconds = new LinkedHashMap<>();
        clocks.forEach(clock -> seconds.putAll(clock.read()));
        return new CpuSample(System.nanoTime(), seconds);
    }

    /** The figure as the terminal shows it as soon as it is measured. */
    static void print(Result cost, PrintStream out) {
        CpuPerEvent cpu = cost.cpu();
        out.printf("  CPU per event: %.0f µs for the whole pipeline (gateway %.0f, broker %.0f, processor %.0f, ClickHouse %.0f);"
                        + " %,d events at %,.0f/s, charged over %.1f s, idle %.2f cores%n", cpu.totalMicros(), cpu.microsOf("gateway"),
                cpu.microsOf("broker"), cpu.microsOf("processor"), cpu.microsOf("clickhouse"), cpu.events(), cost.offeredPerSecond(),
                cpu.seconds(), cpu.idleStackCores());
        out.printf("  idle stack: %s%n", idleStack(cpu));
        out.printf("  Kafka: %.2f records and %,.0f bytes written per event%n", cost.kafka().recordsPerEvent(),
                cost.kafka().bytesPerEvent());
    }

    /**
     * What the stack burns with nothing sent, a figure of its own: "13.7% of a core: gateway 1.2%, …", each process's
     * idle rate over the {@link #IDLE_SECONDS} before the load.
     */
    public static String idleStack(CpuPerEvent cpu) {
        StringBuilder line = new StringBuilder(String.format("%.1f%% of a core:", 100 * cpu.idleStackCores()));
        for (int i = 0; i < PROCESSES.size(); i++) {
            line.append(String.format("%s %s %.1f%%", i == 0 ? "" : ",", PROCESS_NAMES.get(i), 100 * cpu.idleCoresOf(PROCESSES.get(i))));
        }
        return line.append(String.format(" (%d s idle before the load)", IDLE_SECONDS)).toString();
    }
}
