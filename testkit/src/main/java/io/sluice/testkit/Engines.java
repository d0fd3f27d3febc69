package io.sluice.testkit;

/** Where the real Kafka broker and ClickHouse server of this test JVM are. */
public interface Engines {
    String kafkaBootstrapServers();

    /** ClickHouse's HTTP endpoint, e.g. {@code http://127.0.0.1:8123}. */
    String clickHouseUrl();

    String clickHouseUser();

    String clickHousePassword();
}
