package io.sluice.gateway.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import io.sluice.config.Topics;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.validate.AcceptedEvent;
import io.sluice.outcomes.Outcome;

/** Kafka refusing a record for what it is says nothing of Kafka's health: the client is told, 4xx. */
class RecordFaultTest {
    private final PublishHealth health = new PublishHealth(Duration.ofSeconds(60), System::nanoTime);
    private final MockProducer<byte[], byte[]> kafka = new MockProducer<>(cluster(), false, null, new ByteArraySerializer(),
            new ByteArraySerializer());

    private CompletableFuture<Void> publishFailing(RuntimeException error) {
        EventPublisher publisher = new EventPublisher(kafka,
                new Topics("t", "e", "p", "h", "tr", "eh", "e1", "o", "d", "r1", "r1h", "e1h", "tr1h", 1, (short) 1, Duration.ofDays(1)),
                PartitionChooser.development(), health);
        publisher.warmUp(Duration.ofSeconds(5));
        CompletableFuture<Void> acknowledged = publisher.publish("token", Endpoint.TRANSACTION,
                new AcceptedEvent("0123456789abcdef0123456789abcdef", 0, false, null, new byte[] {'{', '}'}, null), new byte[] {'{', '}'},
                0);
        kafka.errorNext(error);
        return acknowledged;
    }

    @Test
    void recordsTooLargeForKafkaDoNotMakeTheGatewayUnready() {
        for (int i = 0; i < PublishHealth.MIN_FAILURES + 1; i++) {
            publishFailing(new RecordTooLargeException("too large"));
        }
        assertNull(health.failingReason());
    }

    @Test
    void brokersRefusingRecordsMakeTheGatewayUnready() {
        for (int i = 0; i < PublishHealth.MIN_FAILURES; i++) {
            publishFailing(new NotEnoughReplicasException("too few in-sync replicas"));
        }
        assertEquals("publishing to Kafka fails: the last 5 publishes failed, none succeeded in the last 60 s; last error: "
                + "NotEnoughReplicasException: too few in-sync replicas", health.failingReason());
    }

    @Test
    void aRecordTooLargeIsAnswered413BodyTooLarge() {
        CompletableFuture<Void> acknowledged = publishFailing(new RecordTooLargeException("too large"));
        Throwable error = acknowledged.handle((ok, e) -> e).join();
        assertEquals(Outcome.BODY_TOO_LARGE, RecordFault.refusal(new CompletionException(error)).outcome());
    }

    private static Cluster cluster() {
        Node node = new Node(0, "h", 1);
        List<PartitionInfo> partitions = List.of("t", "e", Topics.SESSIONS.defaultValue(), "o").stream()
                .map(topic -> new PartitionInfo(topic, 0, node, new Node[] {node}, new Node[] {node})).toList();
        return new Cluster("c", List.of(node), partitions, Set.of(), Set.of());
    }
}
