package io.sluice.gateway.admit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.sluice.projects.Project;
import io.sluice.projects.Quota;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.ingest.Rejection;

class QuotaLimiterTest {
    private static final long SECOND = 1_000_000_000L;
    private final AtomicReference<Double> share = new AtomicReference<>(0.25);
    private final Map<String, Integer> asked = new HashMap<>();
    private final QuotaLimiter limiter = new QuotaLimiter(1, new QuotaShares() {
        @Override
        public double shareOf(String quotaKey) {
            return share.get();
        }

        @Override
        public void asked(String quotaKey) {
            asked.merge(quotaKey, 1, Integer::sum);
        }
    });
    private final Project project = new Project("6WBs8YTmGIWkG53K-8Q2ww", "shop", false, List.of(), Instant.EPOCH,
            new Quota(40, 40), Map.of());

    @Test
    void aGatewayAllowsItsPartOfTheRateAndTheBurst() {
        assertEquals(10, admitted(20, 0), "a quarter of the burst of 40");
        assertEquals(10, admitted(20, SECOND), "a quarter of 40/s, a second later");
    }

    @Test
    void aGrowingPartRefillsFasterFromWhenItGrew() {
        assertEquals(10, admitted(20, 0));
        share.set(1.0);
        assertEquals(10, admitted(60, SECOND), "the second past was at a quarter of 40/s");
        assertEquals(40, admitted(60, 2 * SECOND), "the next at the whole 40/s");
    }

    @Test
    void aShareAboveOneAllowsTheWholeQuotaAndNoMore() {
        share.set(Double.POSITIVE_INFINITY);
        assertEquals(40, admitted(60, 0), "the burst of 40");
        assertEquals(40, admitted(60, SECOND), "40/s, a second later");
    }

    @Test
    void aShareThatIsNotAboveZeroIsTakenAsTheWholeQuotaNotAWaitOf1000Seconds() {
        share.set(-1.0);
        assertEquals(40, admitted(60, 0), "the burst of 40");
        Rejection refused = limiter.tryAdmit(project, Endpoint.TRANSACTION, 0);
        assertEquals(1, refused.retryAfterSeconds(), "one token back at 40/s");
    }

    @Test
    void aShareThatIsNotANumberIsTakenAsTheWholeQuota() {
        share.set(Double.NaN);
        assertEquals(40, admitted(60, 0), "the burst of 40");
    }

    @Test
    void everyEventAskedIsCountedForTheSplitAdmittedOrNot() {
        admitted(25, 0);
        assertEquals(Map.of(project.token(), 25), asked);
    }

    @Test
    void anEventGivenBackLeavesItsTokenForTheNext() {
        share.set(1.0);
        Project withEndpointQuota = project.withQuota("transaction", new Quota(5, 5));
        for (int i = 0; i < 100; i++) {
            assertEquals(null, limiter.tryAdmit(withEndpointQuota, Endpoint.TRANSACTION, 0), "event " + i + " of 100 given back");
            limiter.giveBack(withEndpointQuota, Endpoint.TRANSACTION, 0);
        }
        int admitted = 0;
        for (int i = 0; i < 10; i++) {
            admitted += limiter.tryAdmit(withEndpointQuota, Endpoint.TRANSACTION, 0) == null ? 1 : 0;
        }
        assertEquals(5, admitted, "the endpoint's whole burst of 5 is left");
    }

    @Test
    void givingBackNeverFillsABucketBeyondItsBurst() {
        share.set(1.0);
        limiter.tryAdmit(project, Endpoint.TRANSACTION, 0);
        limiter.giveBack(project, Endpoint.TRANSACTION, 0);
        limiter.giveBack(project, Endpoint.TRANSACTION, 0);
        assertEquals(40, admitted(60, 0), "the burst of 40, not 41");
    }

    @Test
    void filteredEventsGiveBackAtMostTenTimesTheQuotaThenTakeItAsAnyOther() {
        share.set(1.0);
        int admitted = 0;
        for (int i = 0; i < 500; i++) {
            if (limiter.tryAdmit(project, Endpoint.TRANSACTION, 0) == null) {
                admitted++;
                limiter.giveBack(project, Endpoint.TRANSACTION, 0); // filtered
            }
        }
        assertEquals(440, admitted, "400 given back (ten times the burst of 40), then the burst of 40 taken");
    }

    private int admitted(int asking, long nowNanos) {
        int admitted = 0;
        for (int i = 0; i < asking; i++) {
            if (limiter.tryAdmit(project, Endpoint.TRANSACTION, nowNanos) == null) {
                admitted++;
            }
        }
        return admitted;
    }

    /** {@code projects set-quota --endpoint session} sets the quota named {@code session}: session items take from it. */
    @Test
    void aSessionQuotaRefusesSessionsBeyondItsBurstAndNamesTheSessionCategory() {
        share.set(1.0);
        Project sessions = new Project("6WBs8YTmGIWkG53K-8Q2ww", "shop", false, List.of(), Instant.EPOCH, new Quota(40, 40),
                Map.of("session", new Quota(1, 2)));
        assertEquals(null, limiter.tryAdmit(sessions, Endpoint.SESSION, 0));
        assertEquals(null, limiter.tryAdmit(sessions, Endpoint.SESSION, 0));
        Rejection refused = limiter.tryAdmit(sessions, Endpoint.SESSION, 0);
        assertEquals("1:session:project:quota_exceeded", refused.sentryRateLimits());
        assertEquals(null, limiter.tryAdmit(sessions, Endpoint.TRANSACTION, 0));
    }
}
