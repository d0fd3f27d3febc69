package io.sluice.projects;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.function.LongFunction;

/**
 * The last projects looked up, decoded, by token: a fixed array of {@link #ENTRIES} (a hit is
 * one array read; a new entry replaces whatever shared its place), so its heap stays bounded
 * however many tokens are tried. An unknown token has its entry too, holding "none" (the
 * negative cache), and its first lookup decodes a stand-in record of a usual project's shape: a
 * known and an unknown token cost the same, cached or not. An entry names the record address it
 * was decoded from, so a changed project is never answered from an older record.
 */
final class DecodedCache {
    /** The address of no record: the token is unknown. */
    static final long NO_RECORD = -1;
    /** A token no project has: what a lookup by an unknown numeric id decodes under. */
    static final String NO_TOKEN = "";
    static final int ENTRIES = 4096;
    /** Longer tokens (never made by {@link Secrets}) are decoded every time, known or not, rather than held. */
    static final int MAX_CACHED_TOKEN_LENGTH = 64;
    private static final byte[] STAND_IN = ProjectJson.write(new Project(Secrets.newToken(), "stand-in", false,
            List.of(ProjectKey.of(Secrets.newKeyId(), Secrets.newKey(), null)), Instant.EPOCH, null, null,
            List.of(DsnKey.create(Instant.EPOCH))));

    private record Entry(String token, long address, Project project) {
    }

    /** Written and read by many threads without a lock: an {@link Entry} is immutable, so a racing read sees a whole one or another. */
    private final Entry[] entries = new Entry[ENTRIES];

    /** The project of this token, decoded from the record at {@code address} ({@link #NO_RECORD}: none, null). */
    Project project(String token, long address, LongFunction<Project> read) {
        int at = place(token);
        Entry entry = entries[at];
        if (entry != null && entry.address == address && entry.token.equals(token)) {
            return entry.project;
        }
        Project project = address == NO_RECORD ? decodeStandIn() : read.apply(address);
        if (token.length() <= MAX_CACHED_TOKEN_LENGTH) {
            entries[at] = new Entry(token, address, project);
        }
        return project;
    }

    private static Project decodeStandIn() {
        try {
            ProjectJson.read(STAND_IN.clone()); // the copy and the parse a stored record costs
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("the stand-in record is written by this class", e);
        }
    }

    private static int place(String token) {
        int hash = token.hashCode() * 0x9E3779B9;
        return (hash ^ (hash >>> 16)) & (ENTRIES - 1);
    }
}
