package io.sluice.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.engines.KafkaBroker;
import io.sluice.engines.Ports;
import io.sluice.gateway.Gateway;
import io.sluice.gateway.GatewayConfig;
import io.sluice.processor.Processor;
import io.sluice.processor.ProcessorConfig;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.IsolatedSettings;
import io.sluice.testkit.RealEngines;

/**
 * Faults under load, the whole pipeline real: a 2xx means the event is counted exactly once;
 * everything else got a clear refusal. Each test prints its delivery report.
 */
@ExtendWith(RealEngines.class)
class FaultsIT {
    @TempDir
    Path workDir;

    @Test
    void theKafkaBrokerRestartsWhileClientsSend(Engines engines) throws Exception {
        int kafkaPort = Ports.free();
        int controllerPort = Ports.free();
        KafkaBroker broker = KafkaBroker.start(workDir.resolve("kafka"), kafkaPort, controllerPort);
        Map<String, String> values = settings(engines, broker.bootstrapServers(), "sluice_fault_broker");
        values.put("SLUICE_GATEWAY_PUBLISH_TIMEOUT", "2s");
        Gateway gateway = Gateway.start(GatewayConfig.from(new Settings(values)));
        Processor processor = Processor.start(ProcessorConfig.from(new Settings(values)));
        Delivery delivery = new Delivery();
        try {
            ProjectAdmin.NewProject project = project(broker.bootstrapServers(), gateway, delivery);
            ExecutorService clients = Executors.newFixedThreadPool(2);
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                running.add(clients.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        delivery.send(gateway.port(), project.token(), project.key(), UUID.randomUUID().toString().replace("-", ""));
                    }
                }));
            }
            Await.until(Duration.ofSeconds(30), true, () -> delivery.sent.get() >= 120);
            broker.close(); // the broker goes away mid-stream ...
            Thread.sleep(1_500);
            broker = KafkaBroker.start(workDir.resolve("kafka"), kafkaPort, controllerPort); // ... and comes back
            for (Future<?> client : running) {
                client.get(5, TimeUnit.MINUTES);
            }
            clients.shutdown();
            Delivery.Report report = report("Kafka broker restart", engines, "sluice_fault_broker", project.token(), delivery);
            assertEquals(0, report.lost(), report.toString());
            assertEquals(0, report.duplicated(), report.toString());
            assertTrue(report.acknowledged() >= 200, "most events got through: " + report);
        } finally {
            gateway.close();
            processor.close();
            broker.close();
        }
    }

    @Test
    void aGatewayStoppedUnderLoadAnswersWhatItTookAndLosesNothing(Engines engines) throws Exception {
        Map<String, String> values = settings(engines, engines.kafkaBootstrapServers(), "sluice_fault_sigterm");
        Gateway gateway = Gateway.start(GatewayConfig.from(new Settings(values)));
        Processor processor = Processor.start(ProcessorConfig.from(new Settings(values)));
        Delivery delivery = new Delivery();
        try {
            ProjectAdmin.NewProject project = project(engines.kafkaBootstrapServers(), gateway, delivery);
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService clients = Executors.newFixedThreadPool(4);
            List<Future<?>> running = new ArrayList<>();
            int port = gateway.port();
            for (int c = 0; c < 4; c++) {
                running.add(clients.submit(() -> {
                    while (!stop.get() && delivery.send(port, project.token(), project.key(),
                            UUID.randomUUID().toString().replace("-", "")) != -1) {
                        // keep sending until the gateway is gone
                    }
                }));
            }
            Await.until(Duration.ofSeconds(30), true, () -> delivery.acknowledged.size() >= 200);
            gateway.close(); // what the SIGTERM hook does
            stop.set(true);
            for (Future<?> client : running) {
                client.get(1, TimeUnit.MINUTES);
            }
            clients.shutdown();
            Delivery.Report report = report("gateway SIGTERM under load", engines, "sluice_fault_sigterm", project.token(), delivery);
            assertEquals(0, report.lost(), report.toString());
            assertEquals(0, report.duplicated(), report.toString());
            assertTrue(delivery.refusedByStatus.keySet().stream().allMatch(status -> status == -1 || status == 503),
                    "after the stop began, requests were refused (503 shutting_down) or connections refused: " + report);
        } finally {
            processor.close();
        }
    }

    @Test
    void overloadIsShedWithRetryAfterMemoryStaysBoundedAndServiceRecovers(Engines engines) throws Exception {
        Map<String, String> values = settings(engines, engines.kafkaBootstrapServers(), "sluice_fault_overload");
        long budget = 2 * 1024; // about 15 requests of ~130 bytes; 64 clients offer four times that
        values.put("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES", Long.toString(budget));
        Gateway gateway = Gateway.start(GatewayConfig.from(new Settings(values)));
        Delivery delivery = new Delivery();
        try {
            ProjectAdmin.NewProject project = project(engines.kafkaBootstrapServers(), gateway, delivery);
            AtomicLong peakInFlight = new AtomicLong();
            AtomicBoolean load = new AtomicBoolean(true);
            Thread sampler = new Thread(() -> {
                while (load.get()) {
                    peakInFlight.accumulateAndGet(gateway.metrics().inFlightBytes().get(), Math::max);
                    Thread.onSpinWait();
                }
            });
            sampler.start();
            ExecutorService clients = Executors.newFixedThreadPool(64);
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < 64; c++) {
                running.add(clients.submit(() -> {
                    for (int i = 0; i < 40; i++) {
                        delivery.send(gateway.port(), project.token(), project.key(), UUID.randomUUID().toString().replace("-", ""));
                    }
                }));
            }
            for (Future<?> client : running) {
                client.get(5, TimeUnit.MINUTES);
            }
            clients.shutdown();
            load.set(false);
            sampler.join();
            int shed = delivery.refusedByStatus.getOrDefault(503, new java.util.concurrent.atomic.AtomicInteger()).get();
            System.out.println("fault: overload | sent " + delivery.sent.get() + ", acknowledged " + delivery.acknowledged.size()
                    + ", shed with 503 " + shed + ", peak in-flight bytes " + peakInFlight.get() + " of " + budget);
            assertTrue(shed > 0, "64 concurrent clients exceed a 2 KiB budget");
            assertTrue(peakInFlight.get() <= budget, "in-flight bytes stayed within the budget: " + peakInFlight.get());
            assertEquals(delivery.sent.get(), delivery.acknowledged.size() + shed, "every request was accepted or shed with 503");
            assertEquals(200, delivery.send(gateway.port(), project.token(), project.key(), "0123456789abcdef0123456789abcdef"),
                    "served normally once the load is gone");
        } finally {
            gateway.close();
        }
    }

    /** A project the gateway knows (it answers 400 to an empty array instead of 401); no event stored. */
    private static ProjectAdmin.NewProject project(String bootstrap, Gateway gateway, Delivery unused) {
        try (ProjectAdmin admin = new ProjectAdmin(bootstrap, "fault.projects")) {
            ProjectAdmin.NewProject project = admin.create("faults");
            Await.until(Duration.ofSeconds(5), 400, () -> Delivery.status(gateway.port(), project.token(), project.key(), "[]"));
            return project;
        }
    }

    private static Delivery.Report report(String fault, Engines engines, String db, String token, Delivery delivery) {
        Map<String, String> params = Map.of("project", token);
        String ids = String.join(",", delivery.acknowledged.stream().map(id -> "'" + id + "'").toList());
        String foundSql = "SELECT uniqExact(event_id) FROM " + db + ".transactions FINAL WHERE event_id IN (" + ids + ")";
        // Duplicated: counted more often than there are distinct events, or more history rows than events.
        String duplicatedSql = "SELECT (SELECT sum(requests) FROM " + db + ".traffic_1m FINAL WHERE project = {project:String})"
                + " - (SELECT uniqExact(event_id) FROM " + db + ".transactions FINAL WHERE project = {project:String})"
                + " + (SELECT count() - uniqExact(event_id) FROM " + db + ".transactions FINAL WHERE project = {project:String})";
        String settled = delivery.acknowledged.size() + "\t0";
        Await.until(Duration.ofSeconds(120), settled, () -> ClickHouseQuery.run(engines, foundSql)
                + "\t" + ClickHouseQuery.run(engines, duplicatedSql, params));
        long found = Long.parseLong(ClickHouseQuery.run(engines, foundSql));
        long duplicated = Long.parseLong(ClickHouseQuery.run(engines, duplicatedSql, params));
        Delivery.Report report = new Delivery.Report(fault, delivery.sent.get(), delivery.acknowledged.size(), found,
                delivery.acknowledged.size() - found, duplicated, delivery.refusedByStatus.toString());
        System.out.println(report);
        return report;
    }

    private static Map<String, String> settings(Engines engines, String bootstrap, String db) {
        Map<String, String> values = IsolatedSettings.of(db.substring("sluice_".length()), engines,
                Path.of(System.getProperty("java.io.tmpdir"), "sluice-" + db + "-" + UUID.randomUUID()));
        values.put("SLUICE_KAFKA_BOOTSTRAP_SERVERS", bootstrap);
        values.put("SLUICE_PROCESSOR_INSTANCE_ID", db);
        values.put("SLUICE_TOPIC_PARTITIONS", "2");
        values.put("SLUICE_TOPIC_PROJECTS", "fault.projects");
        return values;
    }
}
