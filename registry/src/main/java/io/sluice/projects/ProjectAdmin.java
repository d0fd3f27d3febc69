package io.sluice.projects;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.sluice.config.KafkaSettings;
import io.sluice.events.RouteRules;
import io.sluice.kafka.KafkaClients;
import io.sluice.kafka.KafkaStartupFailure;

/**
 * Reads and changes projects in the registry topic; every gateway follows that topic. A change
 * reads the current record, changes it and writes it back (last writer wins: run one admin change
 * at a time per project); every change but {@link #delete} refuses a deleted project. Every wait for Kafka, its clients' own included, ends after a timeout:
 * an operator gets an error, not a hang, when Kafka cannot be reached.
 */
public final class ProjectAdmin implements AutoCloseable {
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private final KafkaSettings kafka;
    private final String topic;
    private final Duration timeout;
    private final KafkaProducer<byte[], byte[]> producer;

    /** Changes the registry topic of these settings, waiting up to 30 s for each answer from Kafka. */
    public ProjectAdmin(KafkaSettings kafka) {
        this(kafka, DEFAULT_TIMEOUT);
    }

    /** Changes the registry topic of these settings, waiting up to {@code timeout} for each answer from Kafka. */
    public ProjectAdmin(KafkaSettings kafka, Duration timeout) {
        this(kafka, kafka.topics().projects(), timeout);
    }

    /** Changes {@code topic} at these brokers. */
    public ProjectAdmin(String bootstrapServers, String topic) {
        this(KafkaSettings.at(bootstrapServers), topic, DEFAULT_TIMEOUT);
    }

    private ProjectAdmin(KafkaSettings kafka, String topic, Duration timeout) {
        this.kafka = kafka;
        this.topic = topic;
        this.timeout = timeout;
        Properties props = KafkaClients.producerProperties(kafka, "sluice-project-admin", timeout);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * A new project with one private key and one DSN key. The private key is returned here once
     * and stored only as a hash; the DSN key is public and can be shown any time.
     */
    public NewProject create(String name) {
        return create(name, null);
    }

    public NewProject create(String name, Quota quota) {
        Created created = newProject(name, quota);
        save(created.project());
        return created.shown();
    }

    /**
     * Many new projects at once, for tests and migrations: each as {@link #create(String)} makes it,
     * but written without waiting for each answer (Kafka's acknowledgements are awaited at the
     * end), so that a million take seconds rather than a round trip each. The private keys are in
     * what it returns, in the order of {@code names}, and nowhere else.
     */
    public List<NewProject> createAll(List<String> names) {
        List<NewProject> shown = new ArrayList<>(names.size());
        List<java.util.concurrent.Future<?>> acknowledged = new ArrayList<>(names.size());
        for (String name : names) {
            Created created = newProject(name, null);
            shown.add(created.shown());
            acknowledged.add(producer.send(record(created.project())));
        }
        for (int i = 0; i < acknowledged.size(); i++) {
            await(acknowledged.get(i), shown.get(i).token());
        }
        return shown;
    }

    private record Created(Project project, NewProject shown) {
    }

    private static Created newProject(String name, Quota quota) {
        String token = Secrets.newToken();
        String key = Secrets.newKey();
        String keyId = Secrets.newKeyId();
        Instant now = Instant.now();
        DsnKey dsnKey = DsnKey.create(now);
        Project project = new Project(token, name, false, List.of(ProjectKey.of(keyId, key, null)), now,
                quota, null, List.of(dsnKey));
        return new Created(project, new NewProject(token, key, name, dsnKey));
    }

    /** Every project, sorted by name. */
    public List<Project> list() {
        try (ProjectRegistry registry = loadedRegistry()) {
            return registry.all().stream().sorted(Comparator.comparing(Project::name).thenComparing(Project::token)).toList();
        }
    }

    /** @throws UnknownProjectException when no project has this token */
    public Project get(String token) {
        try (ProjectRegistry registry = loadedRegistry()) {
            Project project = registry.find(token);
            if (project == null && registry.isUnreadable(token)) {
                // Not rebuilt from the last readable record: the unread one may have revoked a key.
                throw new UnknownProjectException(token, registry.unreadableProjects().get(token), topic);
            }
            if (project == null) {
                throw new UnknownProjectException(token);
            }
            return project;
        }
    }

    /**
     * Adds a new key; the keys in use keep working until {@code grace} has passed, then expire.
     * The new key is returned here once.
     */
    public RotatedKey rotateKey(String token, Duration grace) {
        Project project = changeable(token);
        Instant oldKeysExpire = Instant.now().plus(grace);
        List<ProjectKey> keys = new ArrayList<>();
        for (ProjectKey key : project.keys()) {
            boolean expiresLater = key.expiresAt() == null || key.expiresAt().isAfter(oldKeysExpire);
            keys.add(expiresLater ? new ProjectKey(key.id(), key.sha256(), oldKeysExpire) : key);
        }
        String newKey = Secrets.newKey();
        String newKeyId = Secrets.newKeyId();
        keys.add(ProjectKey.of(newKeyId, newKey, null));
        save(project.withKeys(keys));
        return new RotatedKey(token, newKeyId, newKey, oldKeysExpire);
    }

    /** Removes one key at once. @throws UnknownKeyException when the project has no key with this id */
    public Project revokeKey(String token, String keyId) {
        Project project = changeable(token);
        List<ProjectKey> keys = project.keys().stream().filter(key -> !key.id().equals(keyId)).toList();
        if (keys.size() == project.keys().size()) {
            throw new UnknownKeyException(token, keyId);
        }
        Project changed = project.withKeys(keys);
        save(changed);
        return changed;
    }

    /**
     * Adds a new DSN key; the DSN keys in use keep working until {@code grace} has passed, then
     * expire (as {@link #rotateKey} does for private keys).
     */
    public RotatedDsnKey rotateDsnKey(String token, Duration grace) {
        Project project = changeable(token);
        Instant now = Instant.now();
        Instant oldKeysExpire = now.plus(grace);
        List<DsnKey> keys = new ArrayList<>();
        for (DsnKey key : project.dsnKeys()) {
            boolean expiresLater = key.expiresAt() == null || key.expiresAt().isAfter(oldKeysExpire);
            keys.add(expiresLater ? key.withExpiresAt(oldKeysExpire) : key);
        }
        DsnKey newKey = DsnKey.create(now);
        keys.add(newKey);
        Project changed = project.withDsnKeys(keys);
        save(changed);
        return new RotatedDsnKey(changed, newKey, oldKeysExpire);
    }

    /**
     * Removes one DSN key at once; the record remembers it as revoked (see {@link Project#revokedDsnKeys()}).
     * @throws UnknownKeyException when the project has no DSN key with this id
     */
    public Project revokeDsnKey(String token, String keyId) {
        Project project = changeable(token);
        Project changed = project.withDsnKeyRevoked(keyId, Instant.now());
        if (changed.dsnKeys().size() == project.dsnKeys().size()) {
            throw new UnknownKeyException(token, keyId);
        }
        save(changed);
        return changed;
    }

    /**
     * The browser origins allowed to use one DSN key (empty: any origin).
     * @throws UnknownKeyException when the project has no DSN key with this id
     */
    public Project setDsnOrigins(String token, String keyId, List<String> origins) {
        Project project = changeable(token);
        if (project.dsnKeys().stream().noneMatch(key -> key.id().equals(keyId))) {
            throw new UnknownKeyException(token, keyId);
        }
        Project changed = project.withDsnKeys(project.dsnKeys().stream()
                .map(key -> key.id().equals(keyId) ? key.withAllowedOrigins(origins) : key).toList());
        save(changed);
        return changed;
    }

    public Project setDisabled(String token, boolean disabled) {
        Project changed = changeable(token).withDisabled(disabled);
        save(changed);
        return changed;
    }

    /** What the gateways scrub from this project's events: the opt-out and extra sensitive field names. */
    public Project setDataScrubbing(String token, DataScrubbing dataScrubbing) {
        Project changed = changeable(token).withDataScrubbing(dataScrubbing);
        save(changed);
        return changed;
    }

    /** Which of this project's events the gateways filter before quota: the built-in filters on, and its patterns. */
    public Project setInboundFilters(String token, InboundFilters inboundFilters) {
        Project changed = changeable(token).withInboundFilters(inboundFilters);
        save(changed);
        return changed;
    }

    /** @param endpoint {@code transaction}, {@code project}, or null for all events */
    public Project setQuota(String token, String endpoint, Quota quota) {
        Project changed = changeable(token).withQuota(endpoint, quota);
        save(changed);
        return changed;
    }

    /**
     * Adds a route pattern, tried after the project's others; unchanged when it has it already.
     * @throws IllegalArgumentException when it is no pattern, or the project has {@link RouteRules#MAX_RULES} already
     */
    public Project addRouteRule(String token, String pattern) {
        Project project = changeable(token);
        Project changed = project.withRouteRules(project.routeRules().with(pattern));
        if (changed.routeRules() != project.routeRules()) {
            save(changed);
        }
        return changed;
    }

    /** Removes a route pattern. @throws UnknownRouteRuleException when the project has no such pattern */
    public Project removeRouteRule(String token, String pattern) {
        Project project = changeable(token);
        RouteRules fewer = project.routeRules().without(pattern);
        if (fewer == project.routeRules()) {
            throw new UnknownRouteRuleException(token, pattern);
        }
        Project changed = project.withRouteRules(fewer);
        save(changed);
        return changed;
    }

    /**
     * Marks the project deleted: disabled for good, so every gateway refuses its keys and DSN keys
     * within a poll. Its record stays, so its token stays known and is never used again; removing its
     * rows is the caller's next step. Deleting it again changes nothing.
     */
    public Project delete(String token) {
        Project project = get(token);
        if (project.lifecycle().deleted()) {
            return project;
        }
        Project changed = project.withDisabled(true).withLifecycle(new Lifecycle(Instant.now()));
        save(changed);
        return changed;
    }

    /**
     * The project, to be changed and written back.
     * @throws DeletedProjectException when it was deleted: writing back what was read could undo a
     *         delete that raced this change, and a deleted project stays as it was deleted
     */
    private Project changeable(String token) {
        Project project = get(token);
        if (project.lifecycle().deleted()) {
            throw new DeletedProjectException(project);
        }
        return project;
    }

    /** Writes a project as it is (all gateways follow within a poll). */
    public void save(Project project) {
        await(producer.send(record(project)), project.token());
    }

    private ProducerRecord<byte[], byte[]> record(Project project) {
        return new ProducerRecord<>(topic, project.token().getBytes(StandardCharsets.UTF_8), ProjectJson.write(project));
    }

    private void await(java.util.concurrent.Future<?> acknowledged, String token) {
        try {
            acknowledged.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw KafkaStartupFailure.of("cannot write project " + token + " to " + topic, e, kafka, timeout.toSeconds());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing project " + token, e);
        }
    }

    private ProjectRegistry loadedRegistry() {
        ProjectRegistry registry = new ProjectRegistry(kafka, topic, timeout);
        try {
            if (!registry.awaitLoaded(timeout)) {
                registry.close();
                throw KafkaStartupFailure.of("cannot read the project registry " + topic,
                        new org.apache.kafka.common.errors.TimeoutException("not read to its end in time"), kafka, timeout.toSeconds());
            }
            return registry;
        } catch (InterruptedException e) {
            registry.close();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the project registry", e);
        }
    }

    @Override
    public void close() {
        producer.close(timeout); // a record Kafka never acknowledged is dropped then, not waited for
    }

    /**
     * What {@code create} hands back: the only time the private key is visible.
     *
     * @param dsnKey the project's first DSN key (null only where a caller built one by hand)
     */
    public record NewProject(String token, String key, String name, DsnKey dsnKey) {
        public NewProject(String token, String key, String name) {
            this(token, key, name, null);
        }

        /** The numeric id of the project (the last part of its DSN). */
        public long numericId() {
            return Project.numericIdOf(token);
        }
    }

    /** What {@code rotateDsnKey} hands back: the project as saved, its new DSN key, and when the old ones stop working. */
    public record RotatedDsnKey(Project project, DsnKey key, Instant oldKeysExpireAt) {
    }

    /** What {@code rotateKey} hands back: the new key, once, and when the old ones stop working. */
    public record RotatedKey(String token, String keyId, String key, Instant oldKeysExpireAt) {
    }

    /** No project has this token. */
    public static final class UnknownProjectException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public UnknownProjectException(String token) {
            super("no project has the token " + token);
        }

        /** Its latest record cannot be read: the gateways refuse it meanwhile. */
        UnknownProjectException(String token, String unreadableBecause, String topic) {
            super("the latest record of project " + token + " cannot be read (" + unreadableBecause + "): its events are "
                    + "refused until a readable record for it is written to " + topic);
        }
    }

    /** The project was deleted: it is never changed (enabled, given keys, quotas, filters…) again. */
    public static final class DeletedProjectException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public DeletedProjectException(Project project) {
            super("project " + project.token() + " was deleted at " + project.lifecycle().deletedAt() + " and is not changed again");
        }
    }

    /** The project has no such route pattern. */
    public static final class UnknownRouteRuleException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public UnknownRouteRuleException(String token, String pattern) {
            super("project " + token + " has no route rule " + pattern);
        }
    }

    /** The project has no key with this id. */
    public static final class UnknownKeyException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public UnknownKeyException(String token, String keyId) {
            super("project " + token + " has no key with id " + keyId);
        }
    }
}
