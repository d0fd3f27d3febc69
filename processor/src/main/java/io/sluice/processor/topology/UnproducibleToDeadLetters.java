package io.sluice.processor.topology;

import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sluice.events.EventHeaders;

/**
 * A record Streams cannot serialize (including one larger than the producer may send, which
 * {@link JsonSerde} refuses) would fail the task, and the same input record would fail it again
 * after every restart: that partition would never move again. Instead its input record goes to
 * the dead-letter topic ({@value StreamsConfig#ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG}) with
 * the reason, in the same transaction, and the partition moves on.
 *
 * <p>Errors of the producer itself keep Kafka Streams' default handling (retry what is
 * retriable, else fail): under exactly-once a refused send leaves the transaction in an error
 * state, so nothing more (not even a dead letter) can be written in it.
 */
public final class UnproducibleToDeadLetters implements ProductionExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(UnproducibleToDeadLetters.class);

    private String deadLetters;
    private DeadLetterCounts counts = new DeadLetterCounts();

    @Override
    public void configure(Map<String, ?> configs) {
        Object topic = configs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        if (topic == null) {
            throw new IllegalArgumentException(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG + " must be set");
        }
        deadLetters = topic.toString();
        if (configs.get(DeadLetterCounts.CONFIG) instanceof DeadLetterCounts given) {
            counts = given;
        }
    }

    @Override
    public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
        if (exception instanceof RetriableException) {
            return Response.retry();
        }
        return Response.fail();
    }

    @Override
    public Response handleSerializationError(ErrorHandlerContext context, ProducerRecord record, Exception exception,
                                             SerializationExceptionOrigin origin) {
        return Response.resume(deadLetter(context, record.topic(), exception));
    }

    private List<ProducerRecord<byte[], byte[]>> deadLetter(ErrorHandlerContext context, String outputTopic, Exception exception) {
        String source = context.topic() + "/" + context.partition() + "@" + context.offset();
        String reason = "cannot write to " + outputTopic + ": " + exception;
        LOG.warn("{} goes to the dead letters: {}", source, reason);
        RecordHeaders headers = new RecordHeaders(context.headers() == null ? new RecordHeaders().toArray() : context.headers().toArray());
        EventHeaders.put(headers, ToDeadLetter.REASON, reason);
        EventHeaders.put(headers, ToDeadLetter.SOURCE, source);
        byte[] value = DeadLetterValues.fitting(context.sourceRawValue(), headers);
        counts.unproducible();
        return List.of(new ProducerRecord<>(deadLetters, null, context.sourceRawKey(), value, headers));
    }
}
