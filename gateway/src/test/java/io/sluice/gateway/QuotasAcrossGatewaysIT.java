package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.events.EventHeaders;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * A project's quota holds across gateways (issue 31): offered four times its quota, it is admitted
 * at its rate within ±15%, whether its traffic comes through one gateway, is spread evenly over
 * four, or shifts while a gateway stops; and every 200 is one record in the raw topic.
 */
@ExtendWith(RealEngines.class)
@Timeout(240)
class QuotasAcrossGatewaysIT {
    private static final int RATE = 40;
    private static final int OFFERED = 4 * RATE;
    /** The first seconds hold the buckets' bursts and the gateways learning where the traffic goes. */
    private static final long WARM_UP_MILLIS = 2_000;
    private static final long RUN_MILLIS = 6_000;
    /** Long enough for two seconds measured before the shift and four after. */
    private static final long SHIFTING_RUN_MILLIS = 8_000;
    private static final long DEREGISTRATION_MILLIS = 1_000;
    private static final double TOLERANCE = 0.15;
    /** How long the quota's burst lasts at its rate (burst 40 at 40/s). */
    private static final long BURST_MILLIS = 1_000;

    private static final List<TestGateway> GATEWAYS = new ArrayList<>();
    private static Engines engines;

    @BeforeAll
    static void startFourGateways(Engines realEngines) throws InterruptedException {
        engines = realEngines;
        for (int i = 0; i < 4; i++) {
            GATEWAYS.add(TestGateway.start(engines, Map.of()));
        }
    }

    @AfterAll
    static void stopGateways() {
        GATEWAYS.forEach(TestGateway::close);
    }

    @Test
    void aQuotaHoldsThroughOneGateway() throws Exception {
        ProjectAdmin.NewProject project = project("one", new Quota(RATE, RATE));
        assertQuotaHolds("through one gateway", project, 1, 0, 0, 0);
    }

    @Test
    void aQuotaHoldsSpreadEvenlyOverFourGateways() throws Exception {
        ProjectAdmin.NewProject project = project("even", new Quota(RATE, RATE));
        long[] reportsBefore = GATEWAYS.stream().mapToLong(g -> metric(g, "sluice_gateway_quota_reports_total")).toArray();
        long[] bytesBefore = GATEWAYS.stream().mapToLong(g -> metric(g, "sluice_gateway_quota_report_bytes_total")).toArray();
        long start = System.nanoTime();
        assertQuotaHolds("spread evenly over four", project, 1, 1, 1, 1);
        double seconds = (System.nanoTime() - start) / 1e9;
        for (int i = 0; i < GATEWAYS.size(); i++) {
            System.out.printf("cost of sharing, gateway %d: %.1f reports/s, %.0f bytes/s published (each gateway reads them all)%n", i,
                    (metric(GATEWAYS.get(i), "sluice_gateway_quota_reports_total") - reportsBefore[i]) / seconds,
                    (metric(GATEWAYS.get(i), "sluice_gateway_quota_report_bytes_total") - bytesBefore[i]) / seconds);
        }
    }

    @Test
    void anEndpointQuotaHoldsSpreadEvenlyOverFourGateways() throws Exception {
        ProjectAdmin.NewProject project = project("endpoint", null);
        try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), "sluice.projects")) {
            admin.setQuota(project.token(), "transaction", new Quota(RATE, RATE));
        }
        GATEWAYS.forEach(gateway -> io.sluice.testkit.Await.until("the endpoint quota", Duration.ofSeconds(30), true,
                () -> gateway.gateway.registry().find(project.token()).endpointQuotas().containsKey("transaction")));
        assertQuotaHolds("endpoint quota, spread evenly over four", project, 1, 1, 1, 1);
    }

    /**
     * 70/20/10 over three gateways; halfway the balancer takes the busiest out (its traffic goes to
     * the others) and a second later it stops.
     */
    @Test
    void aQuotaHoldsWhenTrafficShiftsAndAGatewayStops() throws Exception {
        ProjectAdmin.NewProject project = project("shifting", new Quota(RATE, RATE));
        TestGateway leaving = TestGateway.start(engines, Map.of());
        leaving.awaitKnown(project);
        List<TestGateway> three = List.of(leaving, GATEWAYS.get(0), GATEWAYS.get(1));
        List<OfferedLoad.Answer> answers;
        long shiftedAt;
        try (OfferedLoad load = new OfferedLoad(three, project, OFFERED, 7, 2, 1)) {
            TestGateway.sleep(SHIFTING_RUN_MILLIS / 2);
            load.shift(0, 2, 1);
            shiftedAt = System.currentTimeMillis();
            // As a balancer's deregistration delay: requests already sent to it get their answers.
            TestGateway.sleep(DEREGISTRATION_MILLIS);
            leaving.close();
            TestGateway.sleep(SHIFTING_RUN_MILLIS / 2 - DEREGISTRATION_MILLIS);
            answers = load.stop();
        } catch (RuntimeException | Error e) {
            leaving.close();
            throw e;
        }
        report("shifting 70/20/10, the busiest stopped halfway", answers);
        List<Long> admittedAt = assertEachAdmittedPublishedOnce(engines, project, answers);
        assertRate("shifting, first half", admittedAt, admittedAt.get(0) + WARM_UP_MILLIS, shiftedAt);
        assertRate("shifting, second half", admittedAt, shiftedAt, last(admittedAt));
    }

    private static ProjectAdmin.NewProject project(String name, Quota quota) {
        ProjectAdmin.NewProject project;
        try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), "sluice.projects")) {
            project = quota == null ? admin.create(name) : admin.create(name, quota);
        }
        GATEWAYS.forEach(gateway -> gateway.awaitKnown(project));
        return project;
    }

    /** Offers the project's traffic to the four gateways by {@code weights}; every 200 published once, the rate within 15%. */
    private static void assertQuotaHolds(String what, ProjectAdmin.NewProject project, double... weights) {
        List<OfferedLoad.Answer> answers;
        try (OfferedLoad load = new OfferedLoad(GATEWAYS, project, OFFERED, weights)) {
            TestGateway.sleep(RUN_MILLIS);
            answers = load.stop();
        }
        report(what, answers);
        List<Long> admittedAt = assertEachAdmittedPublishedOnce(engines, project, answers);
        assertRate(what, admittedAt, admittedAt.get(0) + WARM_UP_MILLIS, last(admittedAt));
    }

    private static void report(String what, List<OfferedLoad.Answer> answers) {
        Map<Integer, Long> admittedPerGateway = answers.stream().filter(a -> a.status() == 200)
                .collect(Collectors.groupingBy(OfferedLoad.Answer::gateway, Collectors.counting()));
        Map<Integer, Long> statuses = answers.stream().collect(Collectors.groupingBy(OfferedLoad.Answer::status, Collectors.counting()));
        System.out.printf("quota %d/s, offered %d/s, %s: statuses %s; admitted per gateway %s%n", RATE, OFFERED, what, statuses,
                admittedPerGateway);
    }

    /**
     * The admitted rate as the gateways admitted (each record's receive time): the clients here
     * share two cores with four gateways and a broker, and may send late, in bunches. A silence
     * longer than the burst lasts (burst ÷ rate: 1 s) is a stall of the sender or the gateways, not
     * the quota: the bucket fills for the first second of it only, so the rest is not counted.
     */
    private static void assertRate(String what, List<Long> admittedAt, long fromMillis, long toMillis) {
        List<Long> within = admittedAt.stream().filter(t -> t >= fromMillis && t < toMillis).toList();
        long stalled = 0;
        long previous = fromMillis;
        for (long t : within) {
            stalled += Math.max(0, t - previous - BURST_MILLIS);
            previous = t;
        }
        long counted = toMillis - fromMillis - stalled;
        double rate = within.size() * 1000.0 / counted;
        System.out.printf("%s: %.1f/s admitted over %d ms as the gateways received them (%d ms of stalls not counted)%n",
                what, rate, counted, stalled);
        assertTrue(Math.abs(rate - RATE) <= RATE * TOLERANCE,
                what + ": admitted " + rate + "/s over " + counted + " ms, quota " + RATE + "/s");
    }

    private static long metric(TestGateway gateway, String name) {
        return gateway.admin("/metrics").body().lines().filter(line -> line.startsWith(name + " "))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(name.length() + 1))).findFirst().orElse(-1);
    }

    private static long last(List<Long> sorted) {
        return sorted.get(sorted.size() - 1);
    }

    /**
     * Each 200's id is exactly one record of the project in the raw topic, and the topic has no
     * other of it; every request had an answer. Returns when the gateways received them, in order.
     */
    static List<Long> assertEachAdmittedPublishedOnce(Engines engines, ProjectAdmin.NewProject project, List<OfferedLoad.Answer> answers) {
        assertEquals(0, OfferedLoad.count(answers, OfferedLoad.Answer::status, -1), "requests that got no answer");
        List<String> admitted = answers.stream().filter(a -> a.status() == 200).map(OfferedLoad.Answer::id).toList();
        List<ConsumerRecord<byte[], byte[]>> records = KafkaRecords.upToEnd(engines, "sluice.transactions", Duration.ofSeconds(30),
                KafkaRecords.withHeader(EventHeaders.PROJECT, project.token()));
        Map<String, Long> published = new HashMap<>();
        records.forEach(r -> published.merge(KafkaRecords.header(r, EventHeaders.EVENT_ID), 1L, Long::sum));
        assertEquals(admitted.size(), published.size(), "distinct events published vs 200s");
        assertEquals(admitted.size(), records.size(), "records published vs 200s");
        assertTrue(admitted.stream().allMatch(id -> published.getOrDefault(id, 0L) == 1), "every 200's id published once");
        return records.stream().map(r -> Long.parseLong(KafkaRecords.header(r, EventHeaders.RECEIVED_AT))).sorted().toList();
    }
}
