package io.sluice.gateway.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sluice.metrics.Scrape;
import io.sluice.outcomes.Outcome;

class GatewayMetricsTest {
    @Test
    void everyMetricKeepsItsNameAndValue() {
        try (GatewayMetrics metrics = new GatewayMetrics()) {
            long start = System.nanoTime();
            metrics.answered("transaction", 200, start);
            metrics.answered("transaction", 200, start);
            metrics.answered("project", 401, start);
            metrics.rejected(Outcome.UNAUTHORIZED);
            metrics.received("transaction", 1234);
            metrics.produced(start);
            metrics.inFlightRequests().set(3);
            metrics.inFlightBytes().set(4096);
            metrics.openConnections().set(7);
            metrics.countRegistrySkips(() -> 5);
            metrics.countOutcomeRowsDropped(() -> 6);
            metrics.watchQuotas(() -> true, () -> 2, () -> 8, () -> 9, () -> 10);

            String text = metrics.prometheusText();
            for (String line : List.of(
                    "sluice_gateway_requests_total{endpoint=\"transaction\",status=\"200\"} 2.0",
                    "sluice_gateway_requests_total{endpoint=\"project\",status=\"401\"} 1.0",
                    "sluice_gateway_rejections_total{reason=\"unauthorized\"} 1.0",
                    "sluice_gateway_received_bytes_total{endpoint=\"transaction\"} 1234.0",
                    "sluice_gateway_request_duration_seconds_count 3",
                    "sluice_gateway_kafka_produce_duration_seconds_count 1",
                    "sluice_gateway_in_flight_requests 3.0",
                    "sluice_gateway_in_flight_bytes 4096.0",
                    "sluice_gateway_open_connections 7.0",
                    "sluice_gateway_registry_skipped_records_total 5.0",
                    "sluice_gateway_outcome_rows_dropped_total 6.0",
                    "sluice_gateway_quota_fallback 1.0",
                    "sluice_gateway_quota_gateways 2.0",
                    "sluice_gateway_quota_reports_total 8.0",
                    "sluice_gateway_quota_report_bytes_total 9.0",
                    "sluice_gateway_quota_reports_refused_total 10.0")) {
                assertTrue(text.contains("\n" + line + "\n"), line + " in\n" + text);
            }
        }
    }

    @Test
    void latencyHistogramsKeepTheirBuckets() {
        try (GatewayMetrics metrics = new GatewayMetrics()) {
            metrics.produced(System.nanoTime());
            String text = metrics.prometheusText();
            assertTrue(text.contains("# TYPE sluice_gateway_kafka_produce_duration_seconds histogram\n"), text);
            List<String> bounds = text.lines().filter(line -> line.startsWith("sluice_gateway_kafka_produce_duration_seconds_bucket{"))
                    .map(line -> line.substring(line.indexOf("le=\"") + 4, line.indexOf("\"}"))).toList();
            assertEquals(List.of("0.001", "0.002", "0.005", "0.01", "0.02", "0.05", "0.1", "0.2", "0.5", "1.0", "2.0", "5.0", "10.0", "+Inf"),
                    bounds);
            assertTrue(text.contains("\nsluice_gateway_kafka_produce_duration_seconds_bucket{le=\"+Inf\"} 1\n"), text);
        }
    }

    @Test
    void theRegistrysSizeIsExposed() {
        try (GatewayMetrics metrics = new GatewayMetrics()) {
            metrics.watchRegistry(() -> 3, () -> 4_096, () -> 70_000);
            String text = metrics.prometheusText();
            assertTrue(text.contains("\nsluice_gateway_registry_projects 3.0\n"), text);
            assertTrue(text.contains("\nsluice_gateway_registry_index_bytes 4096.0\n"), text);
            assertTrue(text.contains("\nsluice_gateway_registry_record_bytes 70000.0\n"), text);
        }
    }

    @Test
    void jvmAndProcessMetricsAreThere() {
        try (GatewayMetrics metrics = new GatewayMetrics()) {
            String text = metrics.prometheusText();
            for (String name : List.of("jvm_memory_used_bytes{", "jvm_gc_memory_allocated_bytes_total", "jvm_threads_live_threads",
                    "jvm_classes_loaded_classes", "process_cpu_usage", "process_uptime_seconds", "system_cpu_count")) {
                assertTrue(text.contains("\n" + name), name + " in\n" + text);
            }
        }
    }

    @Test
    void aPrometheusServerAskingForOpenMetricsGetsIt() {
        try (GatewayMetrics metrics = new GatewayMetrics()) {
            metrics.answered("transaction", 200, System.nanoTime());
            Scrape scrape = metrics.scrape("application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1");
            assertTrue(scrape.contentType().startsWith("application/openmetrics-text"), scrape.contentType());
            String body = new String(scrape.body(), StandardCharsets.UTF_8);
            assertTrue(body.contains("\nsluice_gateway_requests_total{endpoint=\"transaction\",status=\"200\"} 1.0\n"), body);
            assertTrue(body.endsWith("# EOF\n"), body);
        }
    }

    @Test
    void withoutAnAcceptHeaderTheAnswerIsPrometheusText() {
        try (GatewayMetrics metrics = new GatewayMetrics()) {
            assertEquals("text/plain; version=0.0.4; charset=utf-8", metrics.scrape(null).contentType());
        }
    }
}
