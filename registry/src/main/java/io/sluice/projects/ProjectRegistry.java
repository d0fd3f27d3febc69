package io.sluice.projects;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sluice.config.KafkaSettings;
import io.sluice.kafka.KafkaClients;

/**
 * The gateway's view of all projects: reads the compacted registry topic from the beginning,
 * then follows it, on one background thread. Lookups are map reads, so an unknown token costs
 * one hash lookup. Changes written to the topic are in force within one poll (well under 2 s).
 */
public final class ProjectRegistry implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProjectRegistry.class);
    private static final Duration POLL = Duration.ofMillis(200);
    /** How long a gateway's follower waits for the topic's partitions before it stops (and says why). */
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(60);
    private static final java.util.regex.Pattern SHA256_HEX = java.util.regex.Pattern.compile("[0-9a-fA-F]{64}");

    private final String topic;
    private final Duration metadataTimeout;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, Project> byToken = new ConcurrentHashMap<>();
    /** SHA-256 (hex) of every key → its project's token: tells "another project's key" from "no key". */
    private final Map<String, String> tokenByKeyHash = new ConcurrentHashMap<>();
    /** Public key of every DSN key (active or expired) → its project's token: no scan on a refusal. */
    private final Map<String, String> tokenByDsnKey = new ConcurrentHashMap<>();
    /**
     * Public keys of DSN keys since removed: still in browsers' code, so no guess (see
     * {@link #isOrWasDsnKey}). Those seen removed here, and those the records list as revoked (which
     * outlive compaction). Grows only with removals, which an operator makes.
     */
    private final java.util.Set<String> removedDsnKeys = ConcurrentHashMap.newKeySet();
    /** Numeric id → token; on a collision neither project is found by id (see {@link NumericIdIndex}). */
    private final NumericIdIndex numericIds = new NumericIdIndex();
    /**
     * Projects whose latest record could not be read → why. Fail closed: such a project is not
     * found (its keys let nothing in), as the record may have revoked a key or disabled it. Its
     * keys stay known as its own, so its clients are told it is unavailable, not that their key is
     * wrong (which would count against their address).
     */
    private final Map<String, String> unreadable = new ConcurrentHashMap<>();
    /** The last readable record of each project in {@link #unreadable}: what a readable one replaces. */
    private final Map<String, Project> withdrawn = new ConcurrentHashMap<>();
    private final CountDownLatch loaded = new CountDownLatch(1);
    private final AtomicLong skipped = new AtomicLong();
    private final Thread follower;
    private volatile boolean closing;
    /** Why the follower stopped while not closing, or null while it follows. */
    private volatile String stoppedBecause;

    /** Follows the registry topic of these settings. */
    public ProjectRegistry(KafkaSettings kafka) {
        this(kafka, kafka.topics().projects());
    }

    /** Follows {@code topic} at these brokers. */
    public ProjectRegistry(String bootstrapServers, String topic) {
        this(KafkaSettings.at(bootstrapServers), topic);
    }

    ProjectRegistry(KafkaSettings kafka, String topic) {
        this(topic, KafkaClients.consumerProperties(kafka, "sluice-registry"), METADATA_TIMEOUT);
    }

    /**
     * For {@link ProjectAdmin}, which waits {@code loadTimeout} for the load and then closes this:
     * the consumer's calls are bounded by it, and the wait for the topic's partitions is twice as
     * long, so that the admin's close ends the follower quietly, not a timeout of its own (an ERROR
     * with a stack trace in the operator's terminal).
     */
    ProjectRegistry(KafkaSettings kafka, String topic, Duration loadTimeout) {
        this(topic, KafkaClients.consumerProperties(kafka, "sluice-registry", loadTimeout), loadTimeout.multipliedBy(2));
    }

    private ProjectRegistry(String topic, Properties props, Duration metadataTimeout) {
        this.topic = topic;
        this.metadataTimeout = metadataTimeout;
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.follower = new Thread(this::follow, "sluice-registry");
        this.follower.setDaemon(true);
        this.follower.start();
    }

    /** True once everything that was in the topic at start has been read. */
    public boolean isLoaded() {
        return loaded.getCount() == 0;
    }

    public boolean awaitLoaded(Duration timeout) throws InterruptedException {
        return loaded.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The project with this token, or null. */
    public Project find(String token) {
        return byToken.get(token);
    }

    /**
     * The project with this numeric id (the last part of a DSN), or null: also null when two
     * projects' ids collide (see {@link NumericIdIndex}).
     */
    public Project byNumericId(long id) {
        String token = numericIds.token(id);
        return token == null ? null : byToken.get(token);
    }

    /** The token of the project that owns a key with this SHA-256, or null. */
    public String tokenOwningKey(byte[] keyHash) {
        return tokenByKeyHash.get(HexFormat.of().formatHex(keyHash));
    }

    /** The token of the project with a DSN key (active or expired) of this public key, or null. */
    public String tokenOwningDsnKey(String publicKey) {
        return publicKey == null ? null : tokenByDsnKey.get(publicKey);
    }

    /**
     * Whether this public key is, or was until it was removed, a DSN key of some project: removed
     * while this registry followed, or listed as revoked in its project's record.
     */
    public boolean isOrWasDsnKey(String publicKey) {
        return publicKey != null && (tokenByDsnKey.containsKey(publicKey) || removedDsnKeys.contains(publicKey));
    }

    /** A snapshot of every project. */
    public java.util.List<Project> all() {
        return java.util.List.copyOf(byToken.values());
    }

    public int size() {
        return byToken.size();
    }

    /** Registry records skipped as malformed since start. */
    public long skippedRecords() {
        return skipped.get();
    }

    /**
     * Whether this project's latest record could not be read: the project is then refused (not
     * {@link #find found}) until a readable record for it arrives.
     */
    public boolean isUnreadable(String token) {
        return token != null && unreadable.containsKey(token);
    }

    /**
     * The token of the project with this numeric id (the last part of a DSN) when it is refused
     * because its latest record could not be read, else null. Known without any readable record of
     * it: a registry that starts after compaction may never have seen one.
     */
    public String unreadableTokenOf(long id) {
        String token = numericIds.token(id);
        return isUnreadable(token) ? token : null;
    }

    /**
     * Whether this project's latest record could not be read and this registry never read one
     * before it (it started after compaction left only that record): which keys it has is unknown.
     */
    public boolean isUnreadableWithUnknownKeys(String token) {
        return isUnreadable(token) && !withdrawn.containsKey(token);
    }

    /** Tokens of the projects whose latest record could not be read → why; a snapshot. */
    public Map<String, String> unreadableProjects() {
        return Map.copyOf(unreadable);
    }

    /**
     * Why the registry no longer follows its topic (project changes are then not seen: the
     * gateway is not ready), or null while it follows.
     */
    public String failure() {
        return stoppedBecause;
    }

    private void follow() {
        try {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, metadataTimeout).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> endAtStart = consumer.endOffsets(partitions);
            while (!closing) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    apply(record);
                }
                if (!isLoaded() && caughtUp(endAtStart)) {
                    LOG.info("project registry loaded: {} projects from {}", byToken.size(), topic);
                    loaded.countDown();
                }
            }
        } catch (WakeupException e) {
            if (!closing) {
                stopped(e);
            }
        } catch (RuntimeException | Error e) {
            stopped(e);
        } finally {
            try {
                consumer.close();
            } catch (RuntimeException e) {
                LOG.debug("closing the registry consumer: {}", e.toString());
            }
        }
    }

    private void stopped(Throwable cause) {
        stoppedBecause = "project registry stopped following " + topic + ": " + cause;
        LOG.error("project registry stopped following {}: gateways will not see project changes", topic, cause);
    }

    private boolean caughtUp(Map<TopicPartition, Long> endAtStart) {
        return endAtStart.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }

    /**
     * Applies a record; a malformed one is skipped with its reason, so one bad record cannot stop
     * the follower, and its project (when its key names one) is refused until a readable record
     * comes: the unread record may have revoked a key or disabled the project.
     */
    private void apply(ConsumerRecord<byte[], byte[]> record) {
        try {
            applyOrThrow(record);
        } catch (IOException | RuntimeException e) {
            String token = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
            if (token != null) {
                withdraw(token, e.toString());
            }
            LOG.warn("skipping malformed registry record at offset {} of {} ({} skipped since start){}: {}",
                    record.offset(), topic, skipped.incrementAndGet(),
                    token == null ? "" : "; its project is refused until a readable record replaces it", e.toString());
        }
    }

    /** Fails closed for this project: not found any more; its keys remain known as its own (see {@link #unreadable}). */
    private void withdraw(String token, String reason) {
        unreadable.put(token, "malformed record: " + reason);
        // Reachable by its DSN's numeric id as unreadable too (a no-op when a readable record put it there).
        numericIds.add(Project.numericIdOf(token), token);
        Project last = byToken.remove(token);
        if (last != null) {
            withdrawn.put(token, last);
        }
    }

    private void applyOrThrow(ConsumerRecord<byte[], byte[]> record) throws IOException {
        if (record.key() == null) {
            throw new IOException("no key (the key must be the project token)");
        }
        String token = new String(record.key(), StandardCharsets.UTF_8);
        Project previous;
        if (record.value() == null) {
            previous = byToken.remove(token);
            if (previous == null) {
                previous = withdrawn.remove(token);
            }
            unreadable.remove(token);
            numericIds.remove(Project.numericIdOf(token), token);
        } else {
            Project project = wellFormed(ProjectJson.read(record.value()));
            // Keys first, the project last: whoever finds a new project also finds its keys.
            project.keys().forEach(key -> tokenByKeyHash.put(key.sha256(), token));
            project.dsnKeys().forEach(key -> tokenByDsnKey.put(key.publicKey(), token));
            // The record's own list: a registry that starts after compaction never saw these keys go.
            project.revokedDsnKeys().forEach(key -> removedDsnKeys.add(key.publicKey()));
            if (!byToken.containsKey(token)) {
                numericIds.add(Project.numericIdOf(token), token);
            }
            previous = byToken.put(token, project);
            if (previous == null) {
                previous = withdrawn.remove(token);
            }
            unreadable.remove(token);
        }
        if (previous != null) {
            Project current = byToken.get(token);
            previous.keys().stream()
                    .filter(old -> current == null || current.keys().stream().noneMatch(k -> k.sha256().equals(old.sha256())))
                    .forEach(old -> tokenByKeyHash.remove(old.sha256(), token));
            previous.dsnKeys().stream()
                    .filter(old -> current == null || current.dsnKeys().stream().noneMatch(k -> k.publicKey().equals(old.publicKey())))
                    .forEach(old -> {
                        removedDsnKeys.add(old.publicKey());
                        tokenByDsnKey.remove(old.publicKey(), token);
                    });
        }
    }

    /** The project, if everything the gateway relies on is there (checked here, not on the first request). */
    private static Project wellFormed(Project project) throws IOException {
        if (project == null) {
            throw new IOException("the value is JSON null, not a project");
        }
        for (ProjectKey key : project.keys()) {
            if (key == null || key.sha256() == null || !SHA256_HEX.matcher(key.sha256()).matches()) {
                throw new IOException("a key without a SHA-256 of 64 hex digits");
            }
        }
        for (DsnKey key : project.dsnKeys()) {
            if (key == null || key.publicKey() == null || key.publicKey().isEmpty()) {
                throw new IOException("a DSN key without a public key");
            }
        }
        for (RevokedDsnKey key : project.revokedDsnKeys()) {
            if (key == null || key.publicKey() == null || key.publicKey().isEmpty()) {
                throw new IOException("a revoked DSN key without a public key");
            }
        }
        return project;
    }

    @Override
    public void close() {
        closing = true;
        consumer.wakeup();
        try {
            follower.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
