package io.sluice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.bench.load.Payloads;
import io.sluice.bench.load.Wrk;
import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.events.EventHeaders;
import io.sluice.gateway.Gateway;
import io.sluice.gateway.GatewayConfig;
import io.sluice.kafka.TopicSetup;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/** The idle stage's two kinds of request are answered by the real gateway, and each envelope is an event of its own. */
@ExtendWith(RealEngines.class)
class IdleLatencyIT {
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyRequestIsAnsweredAndEveryEventPublishedHasAnIdOfItsOwn(Engines engines, @TempDir Path dir) throws Exception {
        Wrk.ensureInstalled();
        Settings settings = new Settings(TestSettings.isolated("idle_latency", engines, dir).toMap());
        KafkaSettings kafka = KafkaSettings.from(settings);
        TopicSetup.ensureTopics(kafka);
        ProjectAdmin.NewProject project;
        try (ProjectAdmin admin = new ProjectAdmin(kafka)) {
            project = admin.create("idle");
        }
        try (Gateway gateway = Gateway.start(GatewayConfig.from(settings))) {
            String origin = "http://127.0.0.1:" + gateway.port();
            String envelopeUrl = origin + "/api/" + project.numericId() + "/envelope/?sentry_key=" + project.dsnKey().publicKey()
                    + "&sentry_version=7";
            // An envelope of no items is answered 200 once the gateway knows the project, and publishes nothing.
            HttpRequest known = HttpRequest.newBuilder(URI.create(envelopeUrl)).POST(HttpRequest.BodyPublishers.ofString("{}\n")).build();
            HttpClient http = HttpClient.newHttpClient();
            Await.until("the project known to the gateway", Duration.ofSeconds(20), 200,
                    () -> http.sendAsync(known, HttpResponse.BodyHandlers.discarding()).join().statusCode());

            IdleLatency.Result idle = IdleLatency.measure(new Wrk(dir), origin + "/api/v1/" + project.token() + "/transaction",
                    project.key(), Payloads.transactionsWithoutEventIds(8), envelopeUrl, 1, 2);

            List<ConsumerRecord<byte[], byte[]>> published = KafkaRecords.upToEnd(engines, kafka.topics().transactions(),
                    Duration.ofSeconds(30), record -> true);
            long measured = idle.v1KeepAlive().requests() + idle.envelopeNewConnections().requests();
            assertTrue(published.size() >= measured, published.size() + " published for " + measured + " measured requests");
            assertEquals(published.size(), published.stream().map(record -> KafkaRecords.header(record, EventHeaders.EVENT_ID))
                    .distinct().count(), "event ids among " + published.size() + " published after " + idle);
        }
    }
}
