package io.sluice.gateway.admit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import io.sluice.gateway.ingest.Endpoint;

class SentryRateLimitsTest {
    @Test
    void mergingKeepsOneEntryPerLimitWithTheLongerWait() {
        String merged = SentryRateLimits.of(1, Endpoint.TRANSACTION);
        for (int i = 1; i <= 1000; i++) {
            merged = SentryRateLimits.merge(merged, SentryRateLimits.of(i % 7 + 1, i % 2 == 0 ? Endpoint.TRANSACTION : null));
        }
        assertEquals("7:transaction:project:quota_exceeded,7:transaction;error;session:project:quota_exceeded", merged);
    }

    /** Sessions take from the project's quota as events do: an SDK told of it holds them back too. */
    @Test
    void theProjectsQuotaHoldsBackTransactionsErrorsAndSessions() {
        assertEquals("3:transaction;error;session:project:quota_exceeded", SentryRateLimits.of(3, null));
    }
}
