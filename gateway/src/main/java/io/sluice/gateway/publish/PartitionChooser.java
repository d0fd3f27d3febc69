package io.sluice.gateway.publish;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Picks an event's partition from its project token and event id only, with HMAC-SHA256 keyed by
 * a secret every gateway shares ({@code SLUICE_PARTITION_KEY}): every copy of an event (a retry,
 * through any gateway, at any load) lands in the same partition, where the processor's
 * per-partition deduplication sees it; and a client, who does not know the key, cannot choose ids
 * that all land in one partition to make it hot (it could with an unkeyed hash such as murmur2).
 * Per-project order across events is not kept (and not promised).
 *
 * <p>A changed key moves most ids to another partition: a retry of an event first published
 * under the old key is then counted again (see docs/reliability.md, "The partition key").
 */
public final class PartitionChooser {
    /** The fixed key of gateways that listen on a loopback address only (`./sluice dev`, tests): public, never for production. */
    public static final String DEVELOPMENT_KEY = "sluice-development-partition-key (public: never use it in production)";
    /** HMAC-SHA256 keys shorter than this are guessable. */
    public static final int MIN_KEY_BYTES = 16;
    private static final String HMAC = "HmacSHA256";

    private final SecretKeySpec key;
    private final boolean development;
    // A Mac is not thread-safe and costly to make: one per thread (the event loops, a fixed few).
    private final ThreadLocal<Mac> macs;

    public PartitionChooser(String key) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException("a partition key needs at least " + MIN_KEY_BYTES + " bytes");
        }
        this.key = new SecretKeySpec(bytes, HMAC);
        this.development = key.equals(DEVELOPMENT_KEY);
        this.macs = ThreadLocal.withInitial(this::newMac);
    }

    /** The chooser of development gateways (loopback only). */
    public static PartitionChooser development() {
        return new PartitionChooser(DEVELOPMENT_KEY);
    }

    /** Whether this is the public development key. */
    public boolean usesDevelopmentKey() {
        return development;
    }

    public int partition(String token, String eventId, int partitions) {
        byte[] digest = macs.get().doFinal((token + '/' + eventId).getBytes(StandardCharsets.UTF_8));
        return (int) Long.remainderUnsigned(ByteBuffer.wrap(digest).getLong(), partitions);
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no " + HMAC, e);
        }
    }
}
