package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.events.EventHeaders;
import io.sluice.events.TransactionFields;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * A sampled transaction's rate reaches the raw record, whatever the door: a Sentry envelope's
 * header ({@code trace.sample_rate}) travels with each transaction it carries; a rate that is no
 * probability is accepted, counted as one request, and counted as an outcome beside accepted.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SampledTransactionsIT {
    static TestGateway gateway;
    static Engines engines;

    @BeforeAll
    static void start(Engines realEngines) throws Exception {
        engines = realEngines;
        gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_OUTCOMES_INTERVAL", "200ms"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void anEnvelopesTraceSampleRateTravelsWithItsTransaction() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("sampled-envelope");
        String body = "{\"event_id\":\"c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3\",\"trace\":{\"trace_id\":\"5b8efff798038103d269b633813fc60c\","
                + "\"public_key\":\"" + project.dsnKey().publicKey() + "\",\"sample_rate\":\"0.25\"}}\n"
                + "{\"type\":\"transaction\"}\n"
                + "{\"event_id\":\"c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3\",\"type\":\"transaction\",\"transaction\":\"GET /a\","
                + "\"contexts\":{\"trace\":{\"op\":\"http.server\"}}}\n";
        HttpResponse<String> response = SentryEndpointsIT.post(SentryEndpointsIT.envelope(gateway, project, "")
                .header("X-Sentry-Auth", SentryEndpointsIT.sentryAuth(project)), body.getBytes(StandardCharsets.UTF_8));
        assertEquals(200, response.statusCode(), response.body());
        ConsumerRecord<byte[], byte[]> record = KafkaRecords.find(engines, "sluice.transactions", 1, Duration.ofSeconds(30),
                KafkaRecords.withHeader(EventHeaders.EVENT_ID, "c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3")).get(0);
        assertEquals(0.25, TransactionFields.fromHeader(record.headers()).sampleRate().rate());
        assertEquals(0.25, TransactionFields.of(new com.fasterxml.jackson.databind.ObjectMapper().readTree(record.value()))
                .sampleRate().rate(), "the JSON carries it too, for a processor that reads the JSON");
    }

    @Test
    void aTransactionWhoseRateIsNoProbabilityIsAcceptedAndCountedAsAnOutcome() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("invalid-rate");
        HttpResponse<String> response = gateway.post(project, "transaction",
                "{\"transaction\": \"GET /a\", \"sample_rate\": 7}");
        assertEquals(200, response.statusCode(), response.body());
        Map<String, Long> expected = Map.of("accepted", 1L, "invalid_sample_rate:sample_rate", 1L);
        assertEquals(expected, TestGateway.outcomes(engines, project, expected));
    }
}
