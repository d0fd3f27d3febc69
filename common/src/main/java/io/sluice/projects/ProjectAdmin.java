package io.sluice.projects;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Writes project changes to the registry topic; every gateway follows that topic. */
public final class ProjectAdmin implements AutoCloseable {
    private final String topic;
    private final KafkaProducer<byte[], byte[]> producer;

    public ProjectAdmin(String bootstrapServers, String topic) {
        this.topic = topic;
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "sluice-project-admin");
        this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** A new project with one key. The key is returned here once and stored only as a hash. */
    public NewProject create(String name) {
        String token = Secrets.newToken();
        String key = Secrets.newKey();
        Project project = new Project(token, name, false,
                List.of(ProjectKey.of(Secrets.newKeyId(), key, null)), Instant.now());
        save(project);
        return new NewProject(token, key, name);
    }

    /** Writes a project as it is (all gateways follow within a poll). */
    public void save(Project project) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic,
                project.token().getBytes(StandardCharsets.UTF_8), ProjectJson.write(project));
        try {
            producer.send(record).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot write project " + project.token() + " to " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing project " + project.token(), e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }

    /** What {@code create} hands back: the only time the key is visible. */
    public record NewProject(String token, String key, String name) {
    }
}
