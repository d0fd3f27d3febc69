package io.sluice.kafka;

import java.util.Properties;

import org.apache.kafka.clients.CommonClientConfigs;

import io.sluice.config.KafkaSettings;

/**
 * Where the properties of every Kafka client start: how to reach the brokers, from
 * {@link KafkaSettings}, so that connection settings (security, issue #16) are added here once.
 * Callers add what is theirs (acks, isolation, group, serializers) to the returned properties.
 * A null client id leaves Kafka's own numbered default, which stays unique within one JVM.
 */
public final class KafkaClients {
    private KafkaClients() {
    }

    public static Properties producerProperties(KafkaSettings kafka, String clientId) {
        return connection(kafka, clientId);
    }

    public static Properties consumerProperties(KafkaSettings kafka, String clientId) {
        return connection(kafka, clientId);
    }

    public static Properties adminProperties(KafkaSettings kafka, String clientId) {
        return connection(kafka, clientId);
    }

    /** No client id: Kafka Streams names its clients after the application id. */
    public static Properties streamsProperties(KafkaSettings kafka) {
        return connection(kafka, null);
    }

    private static Properties connection(KafkaSettings kafka, String clientId) {
        Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        if (clientId != null) {
            props.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
        }
        return props;
    }
}
