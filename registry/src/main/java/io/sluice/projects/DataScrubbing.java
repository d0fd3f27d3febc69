package io.sluice.projects;

import java.util.List;

/**
 * A project's data scrubbing, applied by the gateway before an event reaches Kafka. Records
 * written before it existed read as {@link #DEFAULT}: scrubbing is on unless a project turns it off.
 *
 * @param disabled        the project's explicit opt-out: its events are stored as sent
 * @param sensitiveFields field names scrubbed on top of the defaults (compared as the defaults are:
 *                        ignoring case, {@code -} and {@code _}, anywhere in a name)
 */
public record DataScrubbing(boolean disabled, List<String> sensitiveFields) {
    /** Scrubbing on, with the default rules only. */
    public static final DataScrubbing DEFAULT = new DataScrubbing(false, List.of());

    /** At most this many extra names: each one is searched in every field name of every event. */
    public static final int MAX_SENSITIVE_FIELDS = 50;

    public DataScrubbing {
        sensitiveFields = sensitiveFields == null ? List.of() : List.copyOf(sensitiveFields);
        if (sensitiveFields.size() > MAX_SENSITIVE_FIELDS) {
            throw new IllegalArgumentException("at most " + MAX_SENSITIVE_FIELDS + " sensitive field names, got "
                    + sensitiveFields.size());
        }
    }
}
