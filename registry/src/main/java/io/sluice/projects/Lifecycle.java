package io.sluice.projects;

import java.time.Instant;

/**
 * Whether the project was deleted. Records written before it existed read as {@link #DEFAULT}. A
 * project's retention is not here: the sink reads it from ClickHouse's {@code project_retention}
 * table, beside the rows it governs, and the gateways never need it.
 *
 * @param deletedAt when the project was deleted, or null: a deleted project is disabled for good, its
 *                  rows removed, and its record (and so its token) kept, so the token is never used again
 */
public record Lifecycle(Instant deletedAt) {
    /** Not deleted. */
    public static final Lifecycle DEFAULT = new Lifecycle(null);

    public boolean deleted() {
        return deletedAt != null;
    }
}
