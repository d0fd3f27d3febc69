package io.sluice.sink.lifecycle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * What the sink and replay do with a row before ClickHouse sees it: drop it when its project or user
 * was deleted ({@link Deletions}) or when it is older than its project's retention; otherwise store
 * it, with the project's {@code retention_days} added when the project has its own (without, the
 * column's default, {@code SLUICE_CLICKHOUSE_RETENTION_DAYS}, applies). The tables' TTL reads that
 * column, so each row expires after its project's retention. Immutable: the follower replaces it whole.
 */
public final class RowPolicy {
    /** Nothing deleted, no project with its own retention. */
    public static final RowPolicy NONE = new RowPolicy(Deletions.NONE, Map.of());
    private static final JsonFactory JSON = new JsonFactory();
    /** How {@link #withRetentionDays} begins the field it adds. */
    private static final byte[] STAMP = ",\"retention_days\":".getBytes(StandardCharsets.US_ASCII);

    private final Deletions deletions;
    private final Map<String, Integer> retentionDays;

    public RowPolicy(Deletions deletions, Map<String, Integer> retentionDays) {
        this.deletions = deletions;
        this.retentionDays = Map.copyOf(retentionDays);
    }

    public Deletions deletions() {
        return deletions;
    }

    /** How many projects keep their rows for their own number of days. */
    public int projectsWithOwnRetention() {
        return retentionDays.size();
    }

    /** The project's own retention in days, or null for the global one. */
    public Integer retentionDays(String project) {
        return retentionDays.get(project);
    }

    /**
     * The row as it is to be stored, or null when it is not to be stored. The row is a JSON object as
     * the processor writes it: {@code project} (second), {@code user_id} in history rows, and its time:
     * {@code timestamp} in epoch milliseconds (history), {@code minute} or {@code hour} in epoch seconds
     * (aggregates). Nothing is read when nothing is deleted and no project has its own retention; then
     * the top-level fields up to {@code project}, and on only for a project with deleted users or its
     * own retention. A row that cannot be read is stored as it is: ClickHouse refuses it on its own.
     */
    public byte[] stored(byte[] row, long nowMillis) {
        if (deletions.isEmpty() && retentionDays.isEmpty()) {
            return row;
        }
        String project = null;
        String userId = null;
        long timeMillis = Long.MIN_VALUE;
        Integer days = null;
        boolean needsUser = false;
        try (JsonParser parser = JSON.createParser(row)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return row;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (project == null && value == JsonToken.VALUE_STRING && "project".equals(field)) {
                    project = parser.getText();
                    if (deletions.covers(project, null)) {
                        return null;
                    }
                    needsUser = deletions.hasDeletedUsers(project);
                    days = retentionDays.get(project);
                    if (!needsUser && days == null) {
                        return row; // the rest is not read
                    }
                } else if (value == JsonToken.VALUE_STRING && "user_id".equals(field)) {
                    userId = parser.getText();
                } else if (value == JsonToken.VALUE_NUMBER_INT && "timestamp".equals(field)) {
                    timeMillis = parser.getLongValue();
                } else if (value == JsonToken.VALUE_NUMBER_INT && ("minute".equals(field) || "hour".equals(field))) {
                    timeMillis = parser.getLongValue() * 1000;
                } else {
                    parser.skipChildren();
                }
                if (project != null && (!needsUser || userId != null) && (days == null || timeMillis != Long.MIN_VALUE)) {
                    break;
                }
            }
        } catch (IOException e) {
            return row;
        }
        if (project == null || (needsUser && deletions.covers(project, userId))) {
            return project == null ? row : null;
        }
        if (days == null) {
            return row;
        }
        if (timeMillis != Long.MIN_VALUE && timeMillis < nowMillis - Duration.ofDays(days).toMillis()) {
            return null; // older than the project keeps: the TTL would remove it at once
        }
        return withRetentionDays(row, days);
    }

    /**
     * The object with {@code "retention_days":N} last, in place of the one it ends with: a row the sink
     * stamped, refused and sent back from the dead letters carries it already, and ClickHouse would keep
     * the first of two. Only the end is looked at, where this puts it.
     */
    private static byte[] withRetentionDays(byte[] row, int days) {
        int closing = row.length - 1;
        while (closing > 0 && row[closing] != '}') {
            closing--;
        }
        int digits = closing;
        while (digits > 0 && row[digits - 1] >= '0' && row[digits - 1] <= '9') {
            digits--;
        }
        int stampAt = digits - STAMP.length;
        int cut = digits < closing && stampAt >= 0 && Arrays.equals(row, stampAt, digits, STAMP, 0, STAMP.length) ? stampAt : closing;
        byte[] stamp = (",\"retention_days\":" + days).getBytes(StandardCharsets.US_ASCII);
        byte[] stamped = new byte[cut + stamp.length + row.length - closing];
        System.arraycopy(row, 0, stamped, 0, cut);
        System.arraycopy(stamp, 0, stamped, cut, stamp.length);
        System.arraycopy(row, closing, stamped, cut + stamp.length, row.length - closing);
        return stamped;
    }
}
