package io.sluice.processor.rows;

import java.util.Set;

/**
 * The counting rule of {@code traffic_1m}: a transaction is a handled request when its kind
 * ({@code op}) says a server handled it. Empty: a {@code /api/v1/} call, one handled request by
 * definition; {@code http.server}: Sentry's server SDKs. A browser's {@code pageload} or
 * {@code navigation} is a page view, not a request: it is kept in the history and counted in
 * {@code requests_1m}/{@code _1h} under its op, not in traffic.
 */
public final class HandledRequests {
    private static final Set<String> OPS = Set.of("", "http.server");

    private HandledRequests() {
    }

    public static boolean is(TransactionFact fact) {
        return OPS.contains(fact.op());
    }
}
