package io.sluice.events;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The probability with which a client kept (sampled) a transaction, so that each stored one stands
 * for {@code 1 / rate} that happened. Read from the event's top-level {@code sample_rate} (Sluice's
 * v1 field, where the gateway also puts a Sentry envelope's {@code trace.sample_rate} and an OTLP
 * span's {@code ot=th} threshold), else from the trace context's {@code sentry.sample_rate} (the
 * span data Sentry's SDKs write). A missing rate counts as 1; so does an invalid one (not a number
 * in {@code (0, 1]}), which says where it was read ({@code invalidAt}) for its outcome.
 *
 * @param rate      the rate counted
 * @param invalidAt where an invalid rate was read ({@code sample_rate} or {@code trace_data}); null when none was invalid
 */
public record SampleRate(double rate, String invalidAt) {
    /** Nothing sampled: every stored transaction stands for one. */
    public static final SampleRate NONE = new SampleRate(1, null);
    /** The event's top-level field. */
    public static final String FIELD = "sample_rate";
    static final String TRACE_DATA = "/contexts/trace/data/sentry.sample_rate";
    /** Millionths of a request: the unit of {@link #weightMillionths}. */
    public static final long MILLIONTHS = 1_000_000L;

    public static SampleRate of(JsonNode event) {
        JsonNode sent = event.get(FIELD);
        String source = FIELD;
        if (SentryFields.isAbsent(sent)) {
            sent = SentryFields.at(event, TRACE_DATA);
            source = "trace_data";
        }
        if (SentryFields.isAbsent(sent)) {
            return NONE;
        }
        double rate = sent.isNumber() ? sent.doubleValue() : Double.NaN;
        if (sent.isTextual()) {
            SampleRate read = of(sent.textValue().strip());
            rate = read == null ? Double.NaN : read.rate();
        }
        return isValid(rate) ? new SampleRate(rate, null) : new SampleRate(1, source);
    }

    /** A valid rate as the fields header carries it; null for anything else. */
    static SampleRate of(String text) {
        double rate;
        try {
            rate = Double.parseDouble(text);
        } catch (NumberFormatException notANumber) {
            return null;
        }
        return isValid(rate) ? new SampleRate(rate, null) : null;
    }

    /** A probability a client could have kept a transaction with: in (0, 1], so not NaN. */
    public static boolean isValid(double rate) {
        return rate > 0 && rate <= 1;
    }

    /**
     * What one transaction of this rate stands for, in millionths of a request ({@code 1 / rate},
     * rounded): estimates are added up as integers, so a sum is the same whatever the order of its
     * additions (a recompute or another partition's pre-aggregation gives the same row). Saturates
     * for rates below about 1e-13.
     */
    public long weightMillionths() {
        return Math.round(MILLIONTHS / rate);
    }
}
