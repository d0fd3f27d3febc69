package io.sluice.processor.rows;

import io.sluice.events.SampleRate;

/**
 * What the traffic and per-route counts take of one transaction: its status code (null for none),
 * its duration in milliseconds ({@link #NO_DURATION} for none) and what it stands for, in millionths
 * of a request ({@link SampleRate#weightMillionths}).
 */
public record CountedRequest(Integer statusCode, double durationMs, long weightMillionths) {
    /** A transaction's duration when it had none (what {@link RequestCounts#add} takes for none). */
    public static final double NO_DURATION = -1;

    public static CountedRequest of(TransactionFact fact) {
        return new CountedRequest(fact.statusCode(), fact.durationMs() == null ? NO_DURATION : fact.durationMs(),
                new SampleRate(fact.sampleRate(), null).weightMillionths());
    }
}
