package io.sluice.projects;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
import io.sluice.fatal.FatalErrors;
import io.sluice.kafka.KafkaClients;

/**
 * The gateway's view of all projects: reads the compacted registry topic from the beginning,
 * then follows it, on one background thread. The projects are held by a {@link ProjectTable}:
 * about 75 bytes of heap each, the records outside it; an unknown token costs what a known one
 * does. Changes written to the topic are in force as soon as a fetch brings them (well under 2 s):
 * records end the follower's wait at once.
 */
public final class ProjectRegistry implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProjectRegistry.class);
    /** While loading: how soon an empty or fully read topic is known to be loaded. */
    private static final Duration LOAD_POLL = Duration.ofMillis(200);
    /**
     * Once loaded: records end a poll at once, so this only bounds how often an idle follower wakes
     * for nothing; {@link #close} ends it at once too.
     */
    private static final Duration FOLLOW_POLL = Duration.ofSeconds(10);
    /** How long a gateway's follower waits for the topic's partitions before it stops (and says why). */
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(60);
    private static final java.util.regex.Pattern SHA256_HEX = java.util.regex.Pattern.compile("[0-9a-fA-F]{64}");

    private final String topic;
    private final Duration metadataTimeout;
    private final KafkaConsumer<byte[], byte[]> consumer;
    /** Every project read, in little heap (see {@link ProjectTable}). */
    private final ProjectTable table = new ProjectTable();
    /**
     * Projects whose latest record could not be read → why. Fail closed: such a project is not
     * found (its keys let nothing in), as the record may have revoked a key or disabled it. Its
     * last readable record stays in the table, so its keys stay known as its own and its clients
     * are told it is unavailable, not that their key is wrong (which would count against their
     * address).
     */
    private final Map<String, String> unreadable = new ConcurrentHashMap<>();
    /** The numeric id of each project in {@link #unreadable} → its token. */
    private final Map<Long, String> unreadableByNumericId = new ConcurrentHashMap<>();
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
        // The load reads the whole topic (a million projects: 540 MiB) as fast as it can: 8 MiB a fetch,
        // not the default 1 MiB, is an eighth of the round trips for 8 MiB of heap.
        props.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(8 << 20));
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
        Project project = table.find(token); // first, whatever the answer: the same work for every token
        return unreadable.containsKey(token) ? null : project;
    }

    /** Whether a project has this token (its latest record readable or not), reading no record: cheaper than {@link #find}. */
    public boolean isKnown(String token) {
        return table.contains(token) || unreadable.containsKey(token);
    }

    /**
     * The project with this numeric id (the last part of a DSN), or null: also null when two
     * projects' ids collide (see {@link ProjectTable}).
     */
    public Project byNumericId(long id) {
        Project project = table.byNumericId(id);
        return project == null || unreadable.containsKey(project.token()) ? null : project;
    }

    /** The token of the project that owns a key with this SHA-256, or null. */
    public String tokenOwningKey(byte[] keyHash) {
        return table.tokenOwningKey(keyHash);
    }

    /** The token of the project with a DSN key (active or expired) of this public key, or null. */
    public String tokenOwningDsnKey(String publicKey) {
        return publicKey == null ? null : table.tokenOwningDsnKey(publicKey);
    }

    /**
     * Whether this public key is, or was until it was removed, a DSN key of some project: removed
     * while this registry followed, or listed as revoked in its project's record.
     */
    public boolean isOrWasDsnKey(String publicKey) {
        return publicKey != null && table.isOrWasDsnKey(publicKey);
    }

    /** A snapshot of every project. */
    public java.util.List<Project> all() {
        return table.all().stream().filter(project -> !unreadable.containsKey(project.token())).toList();
    }

    /** How many projects can be found (those whose latest record is unreadable not counted). */
    public int size() {
        return table.size() - (int) unreadable.keySet().stream().filter(table::contains).count();
    }

    /** The heap this registry holds for its projects, in bytes: the table's slots and indexes. */
    public long indexBytes() {
        return table.indexBytes();
    }

    /** The bytes of project records this registry holds outside the heap (a deleted file's mapped pages). */
    public long recordBytes() {
        return table.recordFileBytes();
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
        String token = unreadableByNumericId.get(id);
        return isUnreadable(token) ? token : null;
    }

    /**
     * Whether this project's latest record could not be read and this registry never read one
     * before it (it started after compaction left only that record): which keys it has is unknown.
     */
    public boolean isUnreadableWithUnknownKeys(String token) {
        return isUnreadable(token) && !table.contains(token); // the table holds a project's last readable record
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
        long started = System.nanoTime();
        try {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, metadataTimeout).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> endAtStart = consumer.endOffsets(partitions);
            while (!closing) {
                List<ConsumerRecord<byte[], byte[]>> records = new java.util.ArrayList<>();
                consumer.poll(isLoaded() ? FOLLOW_POLL : LOAD_POLL).forEach(records::add);
                // Parsed on every core while loading (most of a load's work), applied in order on this thread.
                List<Parsed> parsed = (isLoaded() ? records.stream() : records.parallelStream()).map(ProjectRegistry::parse).toList();
                for (int i = 0; i < records.size(); i++) {
                    apply(records.get(i), parsed.get(i));
                }
                if (!isLoaded() && caughtUp(endAtStart)) {
                    LOG.info("project registry loaded: {} projects from {} in {} ms ({} MiB of heap, {} MiB of records outside it)",
                            size(), topic, (System.nanoTime() - started) / 1_000_000, table.indexBytes() >> 20, table.recordFileBytes() >> 20);
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
            if (closing) {
                table.close();
            }
        }
    }

    private void stopped(Throwable cause) {
        FatalErrors.haltIfFatal(cause); // out of memory: not a registry failure to report but a process to restart
        stoppedBecause = "project registry stopped following " + topic + ": " + cause;
        LOG.error("project registry stopped following {}: gateways will not see project changes", topic, cause);
    }

    private boolean caughtUp(Map<TopicPartition, Long> endAtStart) {
        return endAtStart.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }

    /**
     * Applies a parsed record; a malformed one is skipped with its reason, so one bad record cannot stop
     * the follower, and its project (when its key names one) is refused until a readable record
     * comes: the unread record may have revoked a key or disabled the project.
     */
    private void apply(ConsumerRecord<byte[], byte[]> record, Parsed parsed) {
        Exception failure = parsed.malformed();
        if (failure == null) {
            try {
                store(record, parsed.project());
            } catch (IOException | RuntimeException e) {
                failure = e;
            }
        }
        if (failure != null) {
            String token = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
            if (token != null) {
                withdraw(token, failure.toString());
            }
            LOG.warn("skipping malformed registry record at offset {} of {} ({} skipped since start){}: {}",
                    record.offset(), topic, skipped.incrementAndGet(),
                    token == null ? "" : "; its project is refused until a readable record replaces it", failure.toString());
        }
    }

    /** A record's project (null for a deletion), or why it cannot be read. */
    private record Parsed(Project project, Exception malformed) {
    }

    private static Parsed parse(ConsumerRecord<byte[], byte[]> record) {
        try {
            if (record.key() == null) {
                throw new IOException("no key (the key must be the project token)");
            }
            if (record.value() == null) {
                return new Parsed(null, null);
            }
            Project project = wellFormed(ProjectJson.read(record.value()));
            String token = new String(record.key(), StandardCharsets.UTF_8);
            if (!project.token().equals(token)) {
                throw new IOException("the record's key is " + token + " but its project's token " + project.token());
            }
            return new Parsed(project, null);
        } catch (IOException | RuntimeException e) {
            return new Parsed(null, e);
        }
    }

    /** Fails closed for this project: not found any more; its keys remain known as its own (see {@link #unreadable}). */
    private void withdraw(String token, String reason) {
        unreadable.put(token, "malformed record: " + reason);
        // Reachable by its DSN's numeric id as unreadable too, with or without a readable record before.
        unreadableByNumericId.put(Project.numericIdOf(token), token);
    }

    private void store(ConsumerRecord<byte[], byte[]> record, Project project) throws IOException {
        String token = new String(record.key(), StandardCharsets.UTF_8);
        if (project == null) {
            table.remove(token);
        } else {
            table.put(project, record.value());
        }
        if (unreadable.remove(token) != null) {
            unreadableByNumericId.remove(Project.numericIdOf(token), token);
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
