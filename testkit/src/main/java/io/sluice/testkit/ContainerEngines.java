package io.sluice.testkit;

import org.testcontainers.clickhouse.ClickHouseContainer;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The official Kafka and ClickHouse images through Testcontainers, for machines with Docker
 * ({@code SLUICE_TEST_INFRA=containers}). Not exercised on the project's CI machine, which has
 * no Docker daemon; the images are the ones docker-compose.yml pins.
 */
final class ContainerEngines implements Engines, AutoCloseable {
    static final String KAFKA_IMAGE = "apache/kafka:4.3.1";
    static final String CLICKHOUSE_IMAGE = "clickhouse/clickhouse-server:26.7";

    private final KafkaContainer kafka;
    private final ClickHouseContainer clickHouse;

    private ContainerEngines(KafkaContainer kafka, ClickHouseContainer clickHouse) {
        this.kafka = kafka;
        this.clickHouse = clickHouse;
    }

    static ContainerEngines start() {
        KafkaContainer kafka = new KafkaContainer(KAFKA_IMAGE);
        ClickHouseContainer clickHouse = new ClickHouseContainer(CLICKHOUSE_IMAGE);
        kafka.start();
        clickHouse.start();
        return new ContainerEngines(kafka, clickHouse);
    }

    @Override
    public String kafkaBootstrapServers() {
        return kafka.getBootstrapServers();
    }

    @Override
    public String clickHouseUrl() {
        return "http://" + clickHouse.getHost() + ":" + clickHouse.getMappedPort(8123);
    }

    @Override
    public String clickHouseUser() {
        return clickHouse.getUsername();
    }

    @Override
    public String clickHousePassword() {
        return clickHouse.getPassword();
    }

    @Override
    public void close() {
        kafka.stop();
        clickHouse.stop();
    }
}
