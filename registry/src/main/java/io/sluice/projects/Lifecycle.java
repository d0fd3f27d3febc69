package io.sluice.projects;

import java.time.Instant;

/**
 * How long a project's rows are kept, and whether it was deleted. Records written before it existed
 * read as {@link #DEFAULT}.
 *
 * @param retentionDays days its rows are kept in ClickHouse, or null for {@code SLUICE_CLICKHOUSE_RETENTION_DAYS}
 *                      (the global value is also the most any project keeps)
 * @param deletedAt     when the project was deleted, or null: a deleted project is disabled for good, its
 *                      rows removed, and its record (and so its token) kept, so the token is never used again
 */
public record Lifecycle(Integer retentionDays, Instant deletedAt) {
    /** The global retention, not deleted. */
    public static final Lifecycle DEFAULT = new Lifecycle(null, null);

    public Lifecycle {
        if (retentionDays != null && retentionDays < 1) {
            throw new IllegalArgumentException("a retention is at least 1 day, not " + retentionDays);
        }
    }

    public boolean deleted() {
        return deletedAt != null;
    }

    public Lifecycle withRetentionDays(Integer days) {
        return new Lifecycle(days, deletedAt);
    }

    public Lifecycle deletedAt(Instant at) {
        return new Lifecycle(retentionDays, at);
    }
}
