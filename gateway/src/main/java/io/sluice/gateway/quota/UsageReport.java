package io.sluice.gateway.quota;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one gateway was asked of each quota lately ({@link RecentDemand}: events, admitted or not), as it
 * publishes it on the quota usage topic, keyed by its id. A report with no quotas still says the
 * gateway is there; {@code leaving} says it stops, so the others need not wait for it to age out.
 *
 * <p>Hand-written bytes, not JSON: a record per gateway per interval, read by every gateway,
 * with a few bytes per quota (version, flags, count, then length-prefixed key and count).
 */
public record UsageReport(String gateway, boolean leaving, Map<String, Integer> asked) {
    /** Most quotas in one report (the most asked): about 30 bytes each, well within a record's limit. */
    public static final int MAX_QUOTAS = 20_000;
    private static final byte VERSION = 1;

    /** Refuses a negative count (IllegalArgumentException): the split divides by the counts' sum. */
    public UsageReport {
        asked = Map.copyOf(asked);
        for (int events : asked.values()) {
            if (events < 0) {
                // Not the quota's key: it is a project's token.
                throw new IllegalArgumentException("quota usage record with a negative count (" + events + ")");
            }
        }
    }

    public byte[] value() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 + asked.size() * 32);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeByte(leaving ? 1 : 0);
            out.writeInt(asked.size());
            for (Map.Entry<String, Integer> entry : asked.entrySet()) {
                out.writeUTF(entry.getKey());
                out.writeInt(entry.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * The report in a record's value, its first {@link #MAX_QUOTAS} quotas only (no gateway writes
     * more; a record that says so is not let grow this one's memory); an unknown version, unknown
     * flags, a negative count or a malformed value throws IllegalArgumentException, whose message
     * names no quota.
     */
    public static UsageReport read(String gateway, byte[] value) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            byte version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("quota usage record of version " + version + ", this gateway reads " + VERSION);
            }
            byte flags = in.readByte();
            if (flags != 0 && flags != 1) {
                throw new IllegalArgumentException("quota usage record with flags " + flags + ", this gateway reads 0 or 1");
            }
            boolean leaving = flags == 1;
            int count = in.readInt();
            if (count < 0 || count > value.length) {
                throw new IllegalArgumentException("quota usage record names " + count + " quotas in " + value.length + " bytes");
            }
            Map<String, Integer> asked = new LinkedHashMap<>();
            for (int i = 0; i < Math.min(count, MAX_QUOTAS); i++) {
                asked.put(in.readUTF(), in.readInt());
            }
            return new UsageReport(gateway, leaving, asked);
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed quota usage record: " + e, e);
        }
    }
}
