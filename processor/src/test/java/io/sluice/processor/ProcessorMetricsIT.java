package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/** The processor's /metrics has, beside its own, the JVM's, the sink consumer's, Kafka Streams' and RocksDB's meters. */
@ExtendWith(RealEngines.class)
class ProcessorMetricsIT {
    /** Each a line's start: a meter and, where it matters, whose it is. */
    private static final List<Pattern> OPERATORS_METERS = List.of(
            Pattern.compile("(?m)^jvm_memory_used_bytes\\{area=\"heap\""),
            Pattern.compile("(?m)^jvm_gc_memory_allocated_bytes_total "),
            Pattern.compile("(?m)^jvm_threads_live_threads "),
            Pattern.compile("(?m)^process_cpu_usage "),
            // The sink's consumer (Streams' are named after the application id, a process id and their thread).
            Pattern.compile("(?m)^kafka_consumer_fetch_manager_records_consumed_total\\{client_id=\"sluice-procmetrics-sink\""),
            Pattern.compile("(?m)^kafka_stream_thread_process_rate\\{"),
            Pattern.compile("(?m)^kafka_stream_thread_commit_latency_avg\\{"),
            Pattern.compile("(?m)^kafka_producer_record_send_total\\{client_id=\"[^\"]*StreamThread"),
            // RocksDB's properties, recorded at Streams' default level INFO.
            Pattern.compile("(?m)^kafka_stream_state_estimate_num_keys\\{"),
            Pattern.compile("(?m)^kafka_stream_state_size_all_mem_tables\\{"),
            Pattern.compile("(?m)^kafka_stream_state_block_cache_usage\\{"),
            Pattern.compile("(?m)^sluice_processor_input_lag_records "),
            Pattern.compile("(?m)^sluice_sink_rows_inserted_total\\{table=\"sluice_procmetrics\\.transactions\"} 1\\.0$"));

    /** The record key Streams repartitions by: never a label. */
    private static final String PROJECT = "tok7f3a9c1e";

    @TempDir
    Path stateDir;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void theMetricsIncludeTheJvmSinkConsumerStreamsAndRocksDbMeters(Engines engines) throws Exception {
        Map<String, String> values = TestSettings.isolated("procmetrics", engines, stateDir).toMap();
        ProcessorConfig config = ProcessorConfig.from(new Settings(values));
        TopicSetup.ensureTopics(config.kafka());
        String db = values.get("SLUICE_CLICKHOUSE_DATABASE");
        try (ProcessorService processor = ProcessorService.start(config); RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            raw.transaction("procmetrics.transactions", PROJECT, "t1", Instant.now().truncatedTo(ChronoUnit.MINUTES), 200);
            Await.until(Duration.ofSeconds(120), "1", () -> ClickHouseQuery.run(engines,
                    "SELECT count() FROM " + db + ".transactions FINAL"));
            // The Kafka binders pick up meters registered since (tasks, stores) every 10 s.
            assertEquals(List.of(), Await.until(Duration.ofSeconds(40), List.of(), () -> missing(metrics(processor))));
            assertFalse(metrics(processor).contains(PROJECT), "no project token as a label");
        }
    }

    private static List<String> missing(String metrics) {
        return OPERATORS_METERS.stream().filter(meter -> !meter.matcher(metrics).find()).map(Pattern::pattern).toList();
    }

    private static String metrics(ProcessorService processor) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + processor.adminPort() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
