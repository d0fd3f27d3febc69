package io.sluice.bench.run;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.bench.load.Wrk;
import io.sluice.bench.process.CpuWindow;
import io.sluice.gateway.GatewayConfig;
import io.sluice.projects.ProjectAdmin;

/**
 * {@code --producer-experiments}: the gateway at 64 and 256 connections with other settings of its
 * Kafka producer, one fresh gateway JVM per variant, the unchanged settings first so that every
 * variant has a baseline measured minutes apart rather than in another run. acks=all and
 * idempotence stay (Sluice refuses to change them). batch.size is not among the variants: the
 * gateway sets it itself (128 KiB), over any {@code SLUICE_KAFKA_PROPERTY_BATCH_SIZE}.
 *
 * <p>Each variant also runs at a fixed moderate rate (half the pipeline's sustained rate) over
 * {@link #PACED_CONNECTIONS} connections, with the cores the gateway and the broker use meanwhile:
 * as fast as the connections go, a longer linger only adds latency; at a rate the machine can
 * carry, it decides how many produce requests the broker handles for the same events.
 */
public final class ProducerExperiments {
    static final List<Integer> CONNECTIONS = List.of(64, 256);
    static final int PACED_CONNECTIONS = 256;
    /** The paced rate when the run found no sustained rate. */
    public static final double DEFAULT_PACED_RATE = 4_000;

    /**
     * One variant: its name, the settings it changes, its runs per connections, its run at a fixed
     * rate, and a v1 request at a time on a keep-alive connection once the others have run.
     */
    public record Variant(String name, Map<String, String> settings, Map<Integer, Wrk.Result> runs, Paced paced, Wrk.Result idle) {
    }

    /**
     * A run at a fixed rate: the rate asked for, what {@code wrk} measured, and the cores of the
     * gateway's JVM and of the bench's own (the embedded broker; the processor is not running then).
     */
    public record Paced(double targetPerSecond, Wrk.Result load, double gatewayCores, double brokerCores) {
    }

    static final Map<String, Map<String, String>> VARIANTS = variants();

    private ProducerExperiments() {
    }

    /** @param pacedRate requests per second of each variant's run at a fixed rate */
    public static List<Variant> measure(PipelineRun pipeline, Wrk wrk, ProjectAdmin.NewProject project, List<byte[]> bodies, int seconds,
                                 double pacedRate, PrintStream out) throws Exception {
        List<Variant> variants = new java.util.ArrayList<>();
        int i = 0;
        for (Map.Entry<String, Map<String, String>> variant : VARIANTS.entrySet()) {
            out.println("· producer experiment: " + variant.getKey() + " " + variant.getValue());
            try (PipelineRun.Gateway gateway = pipeline.startGateway(project, variant.getValue(), "gateway-experiment-" + ++i,
                    false)) {
                out.println("  warmed: " + Wrk.warmUpLine(wrk.warmUp(gateway.url(), project.key(), bodies, seconds)));
                Map<Integer, Wrk.Result> runs = new LinkedHashMap<>();
                for (int connections : CONNECTIONS) {
                    runs.put(connections, wrk.run(gateway.url(), project.key(), bodies, false, connections, seconds));
                }
                CpuWindow gatewayCpu = CpuWindow.start(gateway.jvm());
                CpuWindow brokerCpu = CpuWindow.startOfThisJvm();
                Wrk.Result load = wrk.run(gateway.url(), project.key(), bodies, false, PACED_CONNECTIONS, seconds, pacedRate);
                Paced paced = new Paced(pacedRate, load, gatewayCpu.coresUsed(), brokerCpu.coresUsed());
                wrk.run(gateway.url(), project.key(), bodies, false, 1, IdleLatency.WARM_SECONDS);
                Wrk.Result idle = wrk.run(gateway.url(), project.key(), bodies, false, 1, IdleLatency.SECONDS);
                variants.add(new Variant(variant.getKey(), variant.getValue(), runs, paced, idle));
            }
        }
        return variants;
    }

    private static Map<String, Map<String, String>> variants() {
        String lingering = GatewayConfig.PRODUCER_LINGER.name();
        String oneProducer = GatewayConfig.EXPRESS_PUBLISHES.name();
        Map<String, Map<String, String>> variants = new LinkedHashMap<>();
        variants.put("as shipped (express below " + GatewayConfig.EXPRESS_PUBLISHES.defaultValue() + ", linger "
                + GatewayConfig.PRODUCER_LINGER.defaultValue() + ")", Map.of());
        variants.put("express below 1, linger 1 ms", Map.of(oneProducer, "1", lingering, "1ms"));
        variants.put("one producer, linger 1 ms", Map.of(oneProducer, "0", lingering, "1ms"));
        variants.put("one producer, linger 5 ms", Map.of(oneProducer, "0", lingering, "5ms"));
        return variants;
    }
}
