package io.sluice.kafka;

import java.util.Properties;

import org.apache.kafka.clients.CommonClientConfigs;

import io.sluice.config.KafkaClientProperties;
import io.sluice.config.KafkaClientProperties.Client;
import io.sluice.config.KafkaSettings;

/**
 * Where the properties of every Kafka client start: how to reach the brokers and the operator's
 * client properties (security: {@code SLUICE_KAFKA_PROPERTY_*}, {@code SLUICE_KAFKA_PROPERTIES_FILE}),
 * from {@link KafkaSettings}, each client taking those it knows. Callers add what is theirs (acks,
 * isolation, group, serializers, timeouts) to the returned properties, and what they add wins.
 * A null client id leaves Kafka's own numbered default, which stays unique within one JVM.
 */
public final class KafkaClients {
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

    /** No client id: Kafka Streams names its clients after the application id. */
    public static Properties streamsProperties(KafkaSettings kafka) {
        return connection(kafka, Client.STREAMS, null);
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
