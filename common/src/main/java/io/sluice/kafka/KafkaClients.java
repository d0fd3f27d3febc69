package io.sluice.kafka;

import java.time.Duration;
import java.util.Properties;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.ProducerConfig;

import io.sluice.config.KafkaClientProperties;
import io.sluice.config.KafkaClientProperties.Client;
import io.sluice.config.KafkaSettings;

/**
 * Where the properties of every Kafka client start: how to reach the brokers and the operator's
 * client properties (security: {@code SLUICE_KAFKA_PROPERTY_*}, {@code SLUICE_KAFKA_PROPERTIES_FILE}),
 * from {@link KafkaSettings}, each client taking those it knows. Callers add what is theirs (acks,
 * isolation, group, serializers, timeouts) to the returned properties, and what they add wins.
 * A null client id leaves Kafka's own numbered default, which stays unique within one JVM.
 * The variants with a timeout are for the command line: servers keep Kafka's own timeouts and retry.
 */
public final class KafkaClients {
    /** Kafka's default {@code request.timeout.ms}: a bounded client never waits longer for one answer. */
    private static final long KAFKA_REQUEST_TIMEOUT_MS = 30_000;

    private KafkaClients() {
    }

    public static Properties producerProperties(KafkaSettings kafka, String clientId) {
        return connection(kafka, Client.PRODUCER, clientId);
    }

    public static Properties consumerProperties(KafkaSettings kafka, String clientId) {
        return connection(kafka, Client.CONSUMER, clientId);
    }

    public static Properties adminProperties(KafkaSettings kafka, String clientId) {
        return connection(kafka, Client.ADMIN, clientId);
    }

    /**
     * A producer that waits at most {@code timeout} for metadata ({@code max.block.ms}) and gives
     * a record up soon after one request's timeout ({@code delivery.timeout.ms}), so that neither
     * {@code send} nor {@code close} outlasts it by much when Kafka does not answer.
     */
    public static Properties producerProperties(KafkaSettings kafka, String clientId, Duration timeout) {
        Properties props = producerProperties(kafka, clientId);
        long requestTimeout = requestTimeoutMillis(timeout);
        props.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(requestTimeout));
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(timeout.toMillis()));
        // The shortest the producer accepts: linger.ms + request.timeout.ms.
        Object linger = props.getOrDefault(ProducerConfig.LINGER_MS_CONFIG,
                ProducerConfig.configDef().defaultValues().get(ProducerConfig.LINGER_MS_CONFIG));
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(requestTimeout + Long.parseLong(linger.toString())));
        return props;
    }

    /** A consumer whose every call without a timeout of its own (end offsets, positions…) waits at most {@code timeout}. */
    public static Properties consumerProperties(KafkaSettings kafka, String clientId, Duration timeout) {
        return bounded(consumerProperties(kafka, clientId), timeout);
    }

    /** An admin client whose every call waits at most {@code timeout}, so closing it waits no longer either. */
    public static Properties adminProperties(KafkaSettings kafka, String clientId, Duration timeout) {
        return bounded(adminProperties(kafka, clientId), timeout);
    }

    /** No client id: Kafka Streams names its clients after the application id. */
    public static Properties streamsProperties(KafkaSettings kafka) {
        return connection(kafka, Client.STREAMS, null);
    }

    /**
     * A call waits at most {@code timeout} ({@code default.api.timeout.ms}; Kafka's own is 60 s).
     * Consumers and admin clients only: a producer knows no such property, and would warn.
     */
    private static Properties bounded(Properties props, Duration timeout) {
        props.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(timeout.toMillis()));
        props.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(requestTimeoutMillis(timeout)));
        return props;
    }

    /** One request waits at most the timeout or Kafka's own 30 s, whichever is shorter. */
    private static long requestTimeoutMillis(Duration timeout) {
        return Math.min(timeout.toMillis(), KAFKA_REQUEST_TIMEOUT_MS);
    }

    private static Properties connection(KafkaSettings kafka, Client client, String clientId) {
        Properties props = new Properties();
        KafkaClientProperties given = kafka.clientProperties();
        props.putAll(given.forClient(client));
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        if (clientId != null) {
            props.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
        }
        return props;
    }
}
