package io.sluice.e2e.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.engines.KafkaBroker;
import io.sluice.engines.Ports;
import io.sluice.gateway.Gateway;
import io.sluice.gateway.GatewayConfig;
import io.sluice.processor.ProcessorConfig;
import io.sluice.processor.ProcessorService;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * Faults under load, the whole pipeline real: a 2xx means the event is counted exactly once;
 * everything else got a clear refusal. Each test prints its delivery report.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
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
        ProcessorService processor = ProcessorService.start(ProcessorConfig.from(new Settings(values)));
        Delivery delivery = new Delivery();
        try {
            ProjectAdmin.NewProject project = project(broker.bootstrapServers(), gateway, delivery);
            ExecutorService clients = Executors.newFixedThreadPool(2);
            List<Future<?>> running = new ArrayList<>();
            // The clients send until the broker is back, so the outage always falls within the load
            // (with a fixed count they once finished before the broker had gone: nothing was refused).
            AtomicBoolean brokerBack = new AtomicBoolean();
            for (int c = 0; c < 2; c++) {
                running.add(clients.submit(() -> {
                    for (int i = 0; i < 200 || !brokerBack.get(); i++) {
                        delivery.send(gateway.port(), project.token(), project.key(), UUID.randomUUID().toString().replace("-", ""));
                    }
                }));
            }
            Await.until("120 requests sent before the outage", Duration.ofSeconds(60), true, () -> delivery.sent.get() >= 120);
            long outageStart = System.nanoTime();
            broker.close(); // the broker goes away mid-stream ...
            // An outage of a known length, not a wait for a condition: longer than the 2 s publish
            // timeout, so the requests sent meanwhile are refused.
            Thread.sleep(3_000);
            broker = KafkaBroker.start(workDir.resolve("kafka"), kafkaPort, controllerPort); // ... and comes back
            brokerBack.set(true);
            for (Future<?> client : running) {
                client.get(5, TimeUnit.MINUTES);
            }
            clients.shutdown();
            int events = delivery.sent.get();
            // The outage hit requests in flight: they were refused, each with 503 unavailable and Retry-After.
            List<Delivery.Refusal> refusals = List.copyOf(delivery.refusals);
            assertTrue(refusals.stream().anyMatch(refusal -> refusal.answeredNanos() > outageStart),
                    "requests were refused during the outage: " + delivery.refused);
            assertEquals(Set.of("503 unavailable Retry-After: 1"), delivery.refused.keySet(), "every refusal");
            assertEquals(Set.of(), delivery.unanswered, "every request got an answer");
            assertEquals(Set.of(), delivery.notSent, "the gateway kept accepting connections");
            assertEquals(events, delivery.acknowledged.size() + delivery.refusedCount(), "every request acknowledged or refused");
            // A client retries what was refused, with the same event id, after each Retry-After (1 s) until it
            // is stored (the first retries may still meet partitions whose leaders the restarted broker is
            // electing): each is then stored and counted once.
            for (Delivery.Refusal refusal : refusals) {
                int status = 0;
                for (int attempt = 0; attempt < 30 && status != 200; attempt++) {
                    if (attempt > 0) {
                        Thread.sleep(1_000);
                    }
                    status = delivery.send(gateway.port(), project.token(), project.key(), refusal.eventId());
                }
                assertEquals(200, status, "a retry once Kafka is back");
            }
            Delivery.Report report = DeliveryCheck.report("Kafka broker restart", engines, "sluice_fault_broker", project.token(), delivery);
            assertEquals(0, report.lost(), report.toString());
            assertEquals(0, report.duplicated(), report.toString());
            assertEquals(events, report.acknowledged(), "every event acknowledged at last: " + report);
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
        ProcessorService processor = ProcessorService.start(ProcessorConfig.from(new Settings(values)));
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
                            UUID.randomUUID().toString().replace("-", "")) != Delivery.NOT_SENT) {
                        // keep sending until the gateway is gone
                    }
                }));
            }
            Await.until("200 acknowledged before the stop", Duration.ofSeconds(60), true, () -> delivery.acknowledged.size() >= 200);
            long stopBegan = System.nanoTime();
            gateway.close(); // what the SIGTERM hook does
            stop.set(true);
            for (Future<?> client : running) {
                client.get(1, TimeUnit.MINUTES);
            }
            clients.shutdown();
            Delivery.Report report = DeliveryCheck.report("gateway SIGTERM under load", engines, "sluice_fault_sigterm", project.token(), delivery);
            assertEquals(0, report.lost(), report.toString());
            assertEquals(0, report.duplicated(), report.toString());
            // After the stop began: refused with 503 shutting_down, or not even connected. A request
            // that was sent and got no answer would be one the gateway dropped mid-flight.
            assertTrue(Set.of("503 shutting_down Retry-After: 1").containsAll(delivery.refused.keySet()), report.toString());
            assertEquals(Set.of(), delivery.unanswered, "requests sent but never answered: " + report);
            assertTrue(delivery.notSent.size() <= 4, "each client stops at its first refused connection: " + report);
            System.out.println("fault: gateway SIGTERM under load | answered after the stop began: " + delivery.answeredAfter(stopBegan));
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
            int shed = delivery.refused.getOrDefault("503 overloaded Retry-After: 1", new AtomicInteger()).get();
            System.out.println("fault: overload | sent " + delivery.sent.get() + ", acknowledged " + delivery.acknowledged.size()
                    + ", refused " + delivery.refused + ", no answer " + delivery.unanswered.size() + ", not sent "
                    + delivery.notSent.size() + ", peak in-flight bytes " + peakInFlight.get() + " of " + budget);
            assertTrue(shed > 0, "64 concurrent clients exceed a 2 KiB budget");
            assertEquals(Set.of("503 overloaded Retry-After: 1"), delivery.refused.keySet(), "every refusal was overload shedding");
            assertEquals(Set.of(), delivery.unanswered, "every request got an answer");
            assertEquals(Set.of(), delivery.notSent, "every connection was accepted");
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
            Await.until("the gateway to know the new project", Duration.ofSeconds(30), 400,
                    () -> Delivery.status(gateway.port(), project.token(), project.key(), "[]"));
            return project;
        }
    }

    private static Map<String, String> settings(Engines engines, String bootstrap, String db) {
        Path stateDir = Path.of(System.getProperty("java.io.tmpdir"), "sluice-" + db + "-" + UUID.randomUUID());
        return TestSettings.isolated(db.substring("sluice_".length()), engines, stateDir)
                .with("SLUICE_KAFKA_BOOTSTRAP_SERVERS", bootstrap)
                .with("SLUICE_PROCESSOR_INSTANCE_ID", db)
                .with("SLUICE_TOPIC_PARTITIONS", "2")
                .with("SLUICE_TOPIC_PROJECTS", "fault.projects")
                // Each event is its own environment (DeliveryCheck counts it in its own traffic row): beyond the
                // processor's daily limit of environments they would be counted as <other>.
                .with("SLUICE_PROCESSOR_ENVIRONMENTS_PER_DAY", "1000000")
                .toMap();
    }
}
