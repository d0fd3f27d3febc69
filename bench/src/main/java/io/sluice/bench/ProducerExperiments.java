package io.sluice.bench;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.config.KafkaClientProperties;
import io.sluice.gateway.GatewayConfig;
import io.sluice.projects.ProjectAdmin;

/**
 * {@code --producer-experiments}: the gateway at 64 and 256 connections with other settings of its
 * Kafka producer, one fresh gateway JVM per variant, the unchanged settings first so that every
 * variant has a baseline measured minutes apart rather than in another run. acks=all and
 * idempotence stay (Sluice refuses to change them). batch.size is not among the variants: the
 * gateway sets it itself (128 KiB), over any {@code SLUICE_KAFKA_PROPERTY_BATCH_SIZE}.
 */
final class ProducerExperiments {
    static final List<Integer> CONNECTIONS = List.of(64, 256);

    /** One variant: its name, the settings it changes, and its runs per connections. */
    record Variant(String name, Map<String, String> settings, Map<Integer, Wrk.Result> runs) {
    }

    static final Map<String, Map<String, String>> VARIANTS = variants();

    private ProducerExperiments() {
    }

    static List<Variant> measure(PipelineRun pipeline, Wrk wrk, ProjectAdmin.NewProject project, byte[] body, int seconds,
                                 PrintStream out) throws Exception {
        List<Variant> variants = new java.util.ArrayList<>();
        int i = 0;
        for (Map.Entry<String, Map<String, String>> variant : VARIANTS.entrySet()) {
            out.println("· producer experiment: " + variant.getKey() + " " + variant.getValue());
            try (PipelineRun.Gateway gateway = pipeline.startGateway(project, variant.getValue(), "gateway-experiment-" + ++i,
                    false)) {
                wrk.warmUp(gateway.url(), project.key(), body, seconds);
                Map<Integer, Wrk.Result> runs = new LinkedHashMap<>();
                for (int connections : CONNECTIONS) {
                    runs.put(connections, wrk.run(gateway.url(), project.key(), body, false, connections, seconds));
                }
                variants.add(new Variant(variant.getKey(), variant.getValue(), runs));
            }
        }
        return variants;
    }

    private static Map<String, Map<String, String>> variants() {
        String inFlight = KafkaClientProperties.VARIABLE_PREFIX + "MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION";
        Map<String, Map<String, String>> variants = new LinkedHashMap<>();
        variants.put("as shipped (linger 1 ms)", Map.of());
        variants.put("linger 0 ms", Map.of(GatewayConfig.PRODUCER_LINGER.name(), "0ms"));
        variants.put("linger 0 ms, 1 request in flight", Map.of(GatewayConfig.PRODUCER_LINGER.name(), "0ms", inFlight, "1"));
        variants.put("linger 5 ms", Map.of(GatewayConfig.PRODUCER_LINGER.name(), "5ms"));
        return variants;
    }
}
