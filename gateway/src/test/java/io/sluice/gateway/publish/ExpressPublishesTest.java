package io.sluice.gateway.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import io.sluice.config.Topics;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.validate.AcceptedEvent;

/** A lone event goes out at once; under load, events share the lingering producer's batches. */
class ExpressPublishesTest {
    private static final Topics TOPICS = new Topics("t", "e", "p", "h", "tr", "eh", "e1", "o", "d", "r1", "r1h", "e1h", "tr1h", 1,
            (short) 1, Duration.ofDays(1));

    private final MockProducer<byte[], byte[]> lingering = producer();
    private final MockProducer<byte[], byte[]> express = producer();

    private EventPublisher publisher(int expressBelow) {
        EventPublisher publisher = new EventPublisher(lingering, express, expressBelow, TOPICS, PartitionChooser.development(),
                new PublishHealth(Duration.ofSeconds(60), System::nanoTime));
        publisher.warmUp(Duration.ofSeconds(5));
        return publisher;
    }

    private static CompletableFuture<Void> publish(EventPublisher publisher) {
        return publisher.publish("token", Endpoint.TRANSACTION,
                new AcceptedEvent("0123456789abcdef0123456789abcdef", 0, false, null, new byte[] {'{', '}'}, null), new byte[] {'{', '}'},
                0);
    }

    @Test
    void eventsPublishedWhileFewerThanTheLimitAwaitAcknowledgementGoOutThroughTheExpressProducer() {
        EventPublisher publisher = publisher(2);
        publish(publisher);
        publish(publisher);
        publish(publisher);

        assertEquals(2, express.history().size());
        assertEquals(1, lingering.history().size());
    }

    @Test
    void anAcknowledgedEventMakesRoomForTheNextToGoExpress() {
        EventPublisher publisher = publisher(1);
        CompletableFuture<Void> first = publish(publisher);
        assertTrue(express.completeNext());
        first.join();
        publish(publisher);

        assertEquals(2, express.history().size());
        assertEquals(0, lingering.history().size());
    }

    @Test
    void aPublishKafkaFailedLeavesTheCountOnce() {
        EventPublisher publisher = publisher(1);
        publish(publisher);
        assertTrue(express.errorNext(new NotEnoughReplicasException("too few in-sync replicas")));

        assertEquals(0, publisher.awaiting());
    }

    @Test
    void aSendThatThrowsLeavesTheCount() {
        EventPublisher publisher = publisher(1);
        express.sendException = new KafkaException("closed");
        CompletableFuture<Void> refused = publish(publisher);

        assertTrue(refused.isCompletedExceptionally());
        assertEquals(0, publisher.awaiting());
    }

    @Test
    void aSendThatCallsBackAndThenThrowsLeavesTheCountOnce() {
        MockProducer<byte[], byte[]> throwingAfterCallback = new MockProducer<>(cluster(), true, null, new ByteArraySerializer(),
                new ByteArraySerializer()) {
            @Override
            public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
                super.send(record, callback);
                throw new KafkaException("thrown after the callback ran");
            }
        };
        EventPublisher publisher = new EventPublisher(lingering, throwingAfterCallback, 1, TOPICS, PartitionChooser.development(),
                new PublishHealth(Duration.ofSeconds(60), System::nanoTime));
        publisher.warmUp(Duration.ofSeconds(5));
        publish(publisher);

        assertEquals(0, publisher.awaiting());
    }

    @Test
    void anAcknowledgedPublishHasLeftTheCountBeforeItsAnswerIsWritten() {
        EventPublisher publisher = publisher(1);
        List<Integer> awaitingWhenAnswered = new ArrayList<>();
        publish(publisher).thenRun(() -> awaitingWhenAnswered.add(publisher.awaiting()));
        assertTrue(express.completeNext());

        assertEquals(List.of(0), awaitingWhenAnswered);
    }

    @Test
    void theExpressProducerIsWarmedForEveryTopic() {
        List<String> warmed = new ArrayList<>();
        MockProducer<byte[], byte[]> counting = new MockProducer<>(cluster(), false, null, new ByteArraySerializer(),
                new ByteArraySerializer()) {
            @Override
            public List<PartitionInfo> partitionsFor(String topic) {
                warmed.add(topic);
                return super.partitionsFor(topic);
            }
        };
        new EventPublisher(lingering, counting, 1, TOPICS, PartitionChooser.development(),
                new PublishHealth(Duration.ofSeconds(60), System::nanoTime)).warmUp(Duration.ofSeconds(5));

        assertEquals(List.of("t", "e", Topics.SESSIONS.defaultValue(), "o"), warmed);
    }

    @Test
    void withALimitOfZeroEveryEventLingers() {
        EventPublisher publisher = publisher(0);
        publish(publisher);

        assertEquals(0, express.history().size());
        assertEquals(1, lingering.history().size());
    }

    private static MockProducer<byte[], byte[]> producer() {
        return new MockProducer<>(cluster(), false, null, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static Cluster cluster() {
        Node node = new Node(0, "h", 1);
        List<PartitionInfo> partitions = List.of("t", "e", Topics.SESSIONS.defaultValue(), "o").stream()
                .map(topic -> new PartitionInfo(topic, 0, node, new Node[] {node}, new Node[] {node})).toList();
        return new Cluster("c", List.of(node), partitions, Set.of(), Set.of());
    }
}
