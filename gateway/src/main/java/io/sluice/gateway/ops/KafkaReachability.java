package io.sluice.gateway.ops;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

import io.sluice.config.KafkaSettings;
import io.sluice.fatal.FatalErrors;
import io.sluice.kafka.KafkaClients;

/** Asks Kafka every few seconds whether it answers; {@code /readyz} reads the last answer. */
public final class KafkaReachability implements AutoCloseable {
    private static final Duration EVERY = Duration.ofSeconds(3);

    private final Admin admin;
    private final ScheduledExecutorService checker;
    private volatile boolean reachable;

    public KafkaReachability(KafkaSettings kafka) {
        Properties props = KafkaClients.adminProperties(kafka, "sluice-gateway-check");
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "2500");
        this.admin = Admin.create(props);
        this.checker = FatalErrors.singleThreadScheduler("sluice-kafka-check");
        check();
        checker.scheduleWithFixedDelay(this::check, EVERY.toMillis(), EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    public boolean reachable() {
        return reachable;
    }

    private void check() {
        try {
            reachable = !admin.describeCluster().nodes().get(2500, TimeUnit.MILLISECONDS).isEmpty();
        } catch (Exception e) {
            reachable = false;
        }
    }

    @Override
    public void close() {
        checker.shutdownNow();
        admin.close(Duration.ofSeconds(2));
    }
}
