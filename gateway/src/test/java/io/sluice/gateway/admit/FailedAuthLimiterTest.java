package io.sluice.gateway.admit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import io.sluice.gateway.ingest.Rejection;


class FailedAuthLimiterTest {
    @Test
    @Timeout(60)
    void manyDistinctFailingAddressesKeepTheTableAtItsBound() throws Exception {
        FailedAuthLimiter limiter = new FailedAuthLimiter(60, 120);
        int addresses = FailedAuthLimiter.MAX_TRACKED + 20_000;
        for (int i = 0; i < addresses; i++) {
            limiter.failed(address(i), i); // one failure each, a nanosecond apart: none has refilled
        }
        assertEquals(FailedAuthLimiter.MAX_TRACKED, limiter.tracked());
    }

    @Test
    void beyondTheBoundTheAddressThatFirstFailedLongestAgoIsForgotten() throws Exception {
        FailedAuthLimiter limiter = new FailedAuthLimiter(1, 2, 3);
        for (int i = 0; i < 4; i++) {
            limiter.failed(address(i), i);
            limiter.failed(address(i), i);
        }
        assertEquals(3, limiter.tracked());
        assertDoesNotThrow(() -> limiter.check(address(0), 10), "the oldest was forgotten");
        for (int i = 1; i < 4; i++) {
            InetAddress limited = address(i);
            assertEquals(429, assertThrows(Rejection.class, () -> limiter.check(limited, 10)).status());
        }
    }

    @Test
    void addressesWhoseBudgetRefilledAreForgottenOnTheNextSweep() throws Exception {
        FailedAuthLimiter limiter = new FailedAuthLimiter(60, 2); // one failure back per second
        limiter.failed(address(1), 0);
        limiter.failed(address(2), 0);
        long twoMinutes = TimeUnit.MINUTES.toNanos(2);
        limiter.failed(address(3), twoMinutes); // a new address after a minute triggers a sweep
        assertEquals(1, limiter.tracked());
    }

    private static InetAddress address(int i) throws UnknownHostException {
        return InetAddress.getByAddress(new byte[] {10, (byte) (i >> 16), (byte) (i >> 8), (byte) i});
    }
}
