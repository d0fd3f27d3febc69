package io.sluice.processor.rows;

import io.sluice.events.SampleRate;

/**
 * Estimated requests in millionths of a request ({@link SampleRate#weightMillionths}), added up
 * saturating ({@link Saturating}: a hostile rate of 1e-300 stands for more requests than a long holds),
 * and their value in requests, as rows store them.
 */
public final class Estimates {
    private Estimates() {
    }

    /** What {@code count} requests that were not sampled stand for. */
    public static long unsampled(long count) {
        return count > Long.MAX_VALUE / SampleRate.MILLIONTHS ? Long.MAX_VALUE : count * SampleRate.MILLIONTHS;
    }

    /** In requests, as a row's {@code estimated_*} column holds it. */
    public static double requests(long millionths) {
        return millionths / (double) SampleRate.MILLIONTHS;
    }
}
