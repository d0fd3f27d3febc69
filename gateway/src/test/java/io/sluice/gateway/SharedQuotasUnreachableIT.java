package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.config.KafkaSettings;
import io.sluice.kafka.KafkaClients;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * When the shared quota usage cannot be read (here its topic is deleted), a gateway goes on
 * serving: each quota is split evenly over the gateways it last knew, and /readyz (still 200) and
 * a metric say so; once the topic is back, quotas are shared again.
 */
@ExtendWith(RealEngines.class)
@Timeout(180)
class SharedQuotasUnreachableIT {
    private static final String TOPIC = "quota-unreachable.quota-usage";
    private static final int RATE = 40;

    @Test
    void withTheSharedUsageGoneAGatewayServesWithAnEvenSplitAndSaysSo(Engines engines) throws Exception {
        Map<String, String> ownUsageTopic = Map.of("SLUICE_TOPIC_QUOTA_USAGE", TOPIC);
        try (TestGateway first = TestGateway.start(engines, ownUsageTopic);
             TestGateway second = TestGateway.start(engines, ownUsageTopic);
             Admin admin = Admin.create(KafkaClients.adminProperties(KafkaSettings.at(engines.kafkaBootstrapServers()), null))) {
            ProjectAdmin.NewProject project;
            try (ProjectAdmin projects = new ProjectAdmin(engines.kafkaBootstrapServers(), "sluice.projects")) {
                project = projects.create("unreachable", new Quota(RATE, RATE));
            }
            first.awaitKnown(project);
            second.awaitKnown(project);
            Await.until("the first gateway knows both", Duration.ofSeconds(10), true,
                    () -> first.admin("/metrics").body().contains("\nsluice_gateway_quota_gateways 2.0\n"));

            admin.deleteTopics(List.of(TOPIC)).all().get(30, TimeUnit.SECONDS);

            Await.until("/readyz says quotas are not shared", Duration.ofSeconds(15), true,
                    () -> first.admin("/readyz").body().contains("quotas are not shared between gateways"));
            HttpResponse<String> ready = first.admin("/readyz");
            assertEquals(200, ready.statusCode(), ready.body());
            assertTrue(ready.body().startsWith("{\"status\":\"ready\",\"degraded\":[\"quotas are not shared between gateways: "
                    + "no report of this gateway's came back from " + TOPIC + " for "), ready.body());
            assertTrue(ready.body().contains("each quota is split evenly over the 2 gateways last known, 1/2 here"), ready.body());
            assertTrue(first.admin("/metrics").body().contains("\nsluice_gateway_quota_fallback 1.0\n"));

            List<OfferedLoad.Answer> answers;
            try (OfferedLoad load = new OfferedLoad(List.of(first), project, 4 * RATE, 1)) {
                TestGateway.sleep(6_000);
                answers = load.stop();
            }
            List<Long> admittedAt = QuotasAcrossGatewaysIT.assertEachAdmittedPublishedOnce(engines, project, answers);
            long last = admittedAt.get(admittedAt.size() - 1);
            double rate = OfferedLoad.perSecond(admittedAt, admittedAt.get(0) + 2_000, last);
            System.out.printf("shared usage unreachable: quota %d/s through one of 2 gateways last known: admitted %.1f/s%n", RATE, rate);
            assertTrue(Math.abs(rate - RATE / 2.0) <= RATE / 2.0 * 0.15, "admitted " + rate + "/s, half the quota is " + RATE / 2);

            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            Await.until("/readyz no longer degraded", Duration.ofSeconds(20), "{\"status\":\"ready\"}",
                    () -> first.admin("/readyz").body());
            assertTrue(first.admin("/metrics").body().contains("\nsluice_gateway_quota_fallback 0.0\n"));
        }
    }
}
