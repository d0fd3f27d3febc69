package io.sluice.projects;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.ToLongFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every project a registry has read, in little heap: the records themselves in a {@link RecordFile}
 * outside it, and in it only a slot per project (its record's address) and four {@link SlotIndex}es
 * (token, private key hash, DSN public key, numeric id), about 75 bytes a project where whole
 * {@link Project} records in hash maps took 883. A lookup decodes the record it finds, through a
 * small cache of decoded projects ({@link DecodedCache}).
 *
 * <p>Numeric ids are 48 bits of a hash, so two tokens may (very rarely) share one: then NEITHER is
 * found by that id, since answering with either would be a guess at which project a DSN means and
 * could file one tenant's events under another. Both stay reachable by token, and the collision
 * is logged as an error.
 *
 * <p>One writer (the registry's follower), any number of readers; a read-write lock guards the
 * indexes, held only for the probes, never while a record is decoded.
 */
final class ProjectTable implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProjectTable.class);

    private final ToLongFunction<String> numericIdOf;
    private final RecordFile records = new RecordFile();
    private final DecodedCache decoded = new DecodedCache();
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final SlotIndex byToken = new SlotIndex();
    private final SlotIndex byKeyHash = new SlotIndex();
    private final SlotIndex byDsnKey = new SlotIndex();
    private final SlotIndex byNumericId = new SlotIndex();
    /** Slot → address of its project's latest record, or {@link #DecodedCache.NO_RECORD} once deleted (slots are not reused). */
    private long[] addresses = new long[1024];
    private int slotCount;
    /**
     * Public keys of DSN keys since removed: still in browsers' code, so no guess. Those seen removed
     * here, and those the records list as revoked (which outlive compaction). Grows only with
     * removals, which an operator makes.
     */
    private final Set<String> removedDsnKeys = ConcurrentHashMap.newKeySet();

    ProjectTable() {
        this(Project::numericIdOf);
    }

    /** With another numeric id than {@link Project#numericIdOf}: for tests of colliding ids. */
    ProjectTable(ToLongFunction<String> numericIdOf) {
        this.numericIdOf = numericIdOf;
    }

    /**
     * Stores a project's latest record ({@code json}, as read from the topic, of {@code project});
     * its previous one, or null.
     */
    Project put(Project project, byte[] json) throws IOException {
        String token = project.token();
        byte[] tokenBytes = token.getBytes(StandardCharsets.UTF_8);
        long address = records.append(tokenBytes, json);
        Project previous;
        int slot;
        lock.writeLock().lock();
        try {
            slot = slotOf(token, tokenBytes);
            previous = slot < 0 ? null : read(addresses[slot]);
            if (slot < 0) {
                slot = newSlot();
                byToken.add(token.hashCode(), slot);
                long id = numericIdOf.applyAsLong(token);
                int newSlot = slot;
                // Others' ids are computed only when one shares the hash (rare): a load does one hash a project.
                boolean shared = byNumericId.count(Long.hashCode(id), other -> other != newSlot) > 0;
                byNumericId.add(Long.hashCode(id), slot);
                if (shared && countWithNumericId(id) > 1) {
                    LOG.error("projects share the numeric id {} (one of them {}): none of them is reachable by DSN until "
                            + "all but one are deleted (their tokens still work)", id, token);
                }
            }
            // Keys first, the record last: whoever finds a new project also finds its keys.
            int keySlot = slot;
            project.keys().forEach(key -> byKeyHash.add(keyHashOf(key.sha256()), keySlot));
            project.dsnKeys().forEach(key -> byDsnKey.add(key.publicKey().hashCode(), keySlot));
            project.revokedDsnKeys().forEach(key -> removedDsnKeys.add(key.publicKey()));
            addresses[slot] = address;
            if (previous != null) {
                forgetKeysNotIn(previous, project, slot);
            }
        } finally {
            lock.writeLock().unlock();
        }
        return previous;
    }

    /** Deletes a project; its last record, or null when it had none. */
    Project remove(String token) {
        byte[] tokenBytes = token.getBytes(StandardCharsets.UTF_8);
        lock.writeLock().lock();
        try {
            int slot = slotOf(token, tokenBytes);
            if (slot < 0) {
                return null;
            }
            Project previous = read(addresses[slot]);
            byToken.remove(token.hashCode(), slot);
            byNumericId.remove(Long.hashCode(numericIdOf.applyAsLong(token)), slot);
            forgetKeysNotIn(previous, null, slot);
            addresses[slot] = DecodedCache.NO_RECORD;
            return previous;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * The project with this token, or null. An unknown token costs what a known one does: the
     * lookup in the cache of decoded projects and, when that misses, the decoding of a record
     * of the same shape (see {@link DecodedCache}), so the time of an answer does not tell
     * whether the token exists.
     */
    Project find(String token) {
        long address;
        lock.readLock().lock();
        try {
            int slot = slotOf(token, token.getBytes(StandardCharsets.UTF_8));
            address = slot < 0 ? DecodedCache.NO_RECORD : addresses[slot];
        } finally {
            lock.readLock().unlock();
        }
        return decoded.project(token, address, this::read);
    }

    /** Whether a project has this token; no record is read. */
    boolean contains(String token) {
        lock.readLock().lock();
        try {
            return slotOf(token, token.getBytes(StandardCharsets.UTF_8)) >= 0;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The one project with this numeric id, or null when none or several have it. */
    Project byNumericId(long id) {
        String token = null;
        lock.readLock().lock();
        try {
            int hash = Long.hashCode(id);
            if (countWithNumericId(id) == 1) {
                token = tokenOf(byNumericId.find(hash, slot -> numericIdOf.applyAsLong(tokenOf(slot)) == id));
            }
        } finally {
            lock.readLock().unlock();
        }
        return find(token == null ? DecodedCache.NO_TOKEN : token);
    }

    /** The token of the project that owns a private key with this SHA-256, or null. */
    String tokenOwningKey(byte[] keyHash) {
        String hex = HexFormat.of().formatHex(keyHash);
        return ownerOf(byKeyHash, keyHashOf(hex), project -> project.keys().stream().anyMatch(k -> k.sha256().equalsIgnoreCase(hex)));
    }

    /** The token of the project with a DSN key (active or expired) of this public key, or null. */
    String tokenOwningDsnKey(String publicKey) {
        return ownerOf(byDsnKey, publicKey.hashCode(), project -> project.dsnKeys().stream().anyMatch(k -> k.publicKey().equals(publicKey)));
    }

    /** Whether this public key is, or was until it was removed, a DSN key of some project. */
    boolean isOrWasDsnKey(String publicKey) {
        return removedDsnKeys.contains(publicKey) || tokenOwningDsnKey(publicKey) != null;
    }

    /** A snapshot of every project, decoded. */
    List<Project> all() {
        long[] live;
        lock.readLock().lock();
        try {
            live = Arrays.stream(addresses, 0, slotCount).filter(address -> address != DecodedCache.NO_RECORD).toArray();
        } finally {
            lock.readLock().unlock();
        }
        List<Project> all = new ArrayList<>(live.length);
        for (long address : live) {
            all.add(read(address));
        }
        return all;
    }

    int size() {
        lock.readLock().lock();
        try {
            return byToken.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The heap the table holds for its projects: slots and indexes (the decoded cache is bounded apart). */
    long indexBytes() {
        lock.readLock().lock();
        try {
            return 16 + 8L * addresses.length + byToken.bytes() + byKeyHash.bytes() + byDsnKey.bytes() + byNumericId.bytes();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The bytes of records written outside the heap. */
    long recordFileBytes() {
        return records.bytesWritten();
    }

    @Override
    public void close() {
        records.close();
    }

    private String ownerOf(SlotIndex index, int hash, java.util.function.Predicate<Project> owns) {
        long[] candidates;
        lock.readLock().lock();
        try {
            // Collected under the lock, decoded after it: a decode may take microseconds.
            List<Long> found = new ArrayList<>(1);
            index.forEach(hash, slot -> found.add(addresses[slot]));
            candidates = found.stream().mapToLong(Long::longValue).toArray();
        } finally {
            lock.readLock().unlock();
        }
        for (long address : candidates) {
            Project project = read(address);
            if (owns.test(project)) {
                return project.token();
            }
        }
        return null;
    }

    private void forgetKeysNotIn(Project previous, Project current, int slot) {
        Set<Integer> keptKeyHashes = new HashSet<>();
        Set<String> keptDsnKeys = new HashSet<>();
        if (current != null) {
            current.keys().forEach(key -> keptKeyHashes.add(keyHashOf(key.sha256())));
            current.dsnKeys().forEach(key -> keptDsnKeys.add(key.publicKey()));
        }
        previous.keys().stream().map(key -> keyHashOf(key.sha256())).filter(hash -> !keptKeyHashes.contains(hash))
                .forEach(hash -> byKeyHash.remove(hash, slot));
        Set<Integer> keptDsnHashes = new HashSet<>();
        keptDsnKeys.forEach(key -> keptDsnHashes.add(key.hashCode()));
        previous.dsnKeys().stream().filter(key -> !keptDsnKeys.contains(key.publicKey())).forEach(key -> {
            removedDsnKeys.add(key.publicKey());
            if (!keptDsnHashes.contains(key.publicKey().hashCode())) {
                byDsnKey.remove(key.publicKey().hashCode(), slot);
            }
        });
    }

    private int countWithNumericId(long id) {
        return byNumericId.count(Long.hashCode(id), slot -> numericIdOf.applyAsLong(tokenOf(slot)) == id);
    }

    private int slotOf(String token, byte[] bytes) {
        return byToken.find(token.hashCode(), slot -> records.tokenEquals(addresses[slot], bytes));
    }

    private String tokenOf(int slot) {
        return slot < 0 ? null : new String(records.token(addresses[slot]), StandardCharsets.UTF_8);
    }

    private int newSlot() {
        if (slotCount == addresses.length) {
            addresses = Arrays.copyOf(addresses, addresses.length * 2);
        }
        return slotCount++;
    }

    private Project read(long address) {
        try {
            return ProjectJson.read(records.json(address));
        } catch (IOException e) {
            throw new IllegalStateException("a stored registry record no longer reads", e); // it was read once before it was stored
        }
    }

    /** The first 4 bytes of a SHA-256, from its 64 hex digits: uniform already. */
    private static int keyHashOf(String sha256Hex) {
        return (int) Long.parseLong(sha256Hex.substring(0, 8), 16);
    }
}
