package io.sluice.outcomes;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One record of the outcomes topic, and one row of {@code sluice.outcomes_1m} as the sink writes
 * it (the columns have these names): how many requests of a project got this outcome in this
 * minute at this gateway. {@code events} is an absolute count and {@code version} equals it, so
 * the table keeps the highest count per key, and sending a row again counts nothing twice.
 *
 * @param project the project token, or "" for requests that named no known project
 * @param minute  the minute, epoch seconds
 * @param outcome the wire code, an {@link Outcome}'s or a {@link QualifiedOutcome}'s
 * @param gateway the id of the gateway instance that counted
 */
@JsonPropertyOrder({"project", "minute", "outcome", "gateway", "events", "version"})
public record OutcomeRow(String project, long minute, String outcome, String gateway, long events, long version) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static OutcomeRow of(String project, long minute, Outcome outcome, String gateway, long events) {
        return new OutcomeRow(project, minute, outcome.code(), gateway, events, events);
    }

    public static OutcomeRow of(String project, long minute, QualifiedOutcome outcome, String gateway, long events) {
        return new OutcomeRow(project, minute, outcome.code(), gateway, events, events);
    }

    /** The record key: one per project, outcome, minute and gateway, so compaction keeps the latest count. */
    public byte[] key() {
        return (project + '/' + outcome + '/' + minute + '/' + gateway).getBytes(StandardCharsets.UTF_8);
    }

    /** The record value, a JSON object. */
    public byte[] json() {
        try {
            return JSON.writeValueAsBytes(this);
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
