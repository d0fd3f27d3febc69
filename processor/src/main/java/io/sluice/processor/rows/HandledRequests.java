package io.sluice.processor.rows;

/**
 * The counting rule of {@code traffic_1m}: a transaction is a handled request when its kind
 * ({@code op}) says a server handled it: {@code http.server}, Sentry's server SDKs' op, which a
 * transaction with none gets too ({@link #opOf}: a {@code /api/v1/} call is one handled request by
 * definition), so every table and panel finds handled requests under one op. A browser's
 * {@code pageload} or {@code navigation} is a page view, not a request: it is kept in the history
 * and counted in {@code requests_1m}/{@code _1h} under its op, not in traffic.
 */
public final class HandledRequests {
    public static final String OP = "http.server";

    private HandledRequests() {
    }

    public static boolean is(TransactionFact fact) {
        return OP.equals(fact.op());
    }

    /** The op a transaction is stored and counted under: as sent, {@link #OP} when it has none. */
    static String opOf(String sent) {
        return sent == null || sent.isEmpty() ? OP : sent;
    }
}
