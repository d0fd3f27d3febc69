package io.sluice.gateway.otlp;

/**
 * The probability with which a span was kept, from OpenTelemetry's consistent probability sampling:
 * the W3C {@code tracestate}'s {@code ot} member holds {@code th:<hex>}, a rejection threshold of 1
 * to 14 hex digits (56 bits, padded with trailing zeros); the span was kept with probability
 * {@code 1 - th / 2^56} ({@code th:0}: every span, {@code th:c}: a quarter).
 */
final class TraceStateThreshold {
    /** No threshold in the trace state: nothing says the span was sampled. */
    static final double NONE = 1;
    private static final int MAX_DIGITS = 14;

    private TraceStateThreshold() {
    }

    /** The probability; {@link #NONE} without a threshold, NaN for one that cannot be read. */
    static double probability(String traceState) {
        String threshold = threshold(traceState);
        if (threshold == null) {
            return NONE;
        }
        if (threshold.isEmpty() || threshold.length() > MAX_DIGITS) {
            return Double.NaN;
        }
        long rejected = 0;
        for (int i = 0; i < MAX_DIGITS; i++) {
            int digit = i < threshold.length() ? Character.digit(threshold.charAt(i), 16) : 0;
            if (digit < 0) {
                return Double.NaN;
            }
            rejected = rejected << 4 | digit;
        }
        return 1 - rejected / 0x1p56;
    }

    /** The {@code th} value of the {@code ot} member; null when there is none. */
    private static String threshold(String traceState) {
        for (String member : traceState.split(",")) {
            String trimmed = member.strip();
            if (trimmed.startsWith("ot=")) {
                for (String entry : trimmed.substring(3).split(";")) {
                    if (entry.startsWith("th:")) {
                        return entry.substring(3);
                    }
                }
            }
        }
        return null;
    }
}
