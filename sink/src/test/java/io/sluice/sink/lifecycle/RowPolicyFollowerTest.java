package io.sluice.sink.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class RowPolicyFollowerTest {
    private static final RowPolicy ALICE_DELETED = new RowPolicy(Deletions.of(List.of(new Deletions.Deletion("shop", "alice"))), Map.of());

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AtomicBoolean tablesAnswer = new AtomicBoolean(true);
    private final RowPolicyFollower follower = new RowPolicyFollower(() -> {
        if (!tablesAnswer.get()) {
            throw new IllegalStateException("ClickHouse is away");
        }
        return ALICE_DELETED;
    }, "db.deletions", nanos::get);

    private void advanceMillis(long millis) {
        nanos.addAndGet(millis * 1_000_000L);
    }

    @Test
    void aPolicyLastReadThreeRefreshesAgoIsStillInForce() {
        follower.refresh();
        tablesAnswer.set(false);
        advanceMillis(3_000);
        follower.refresh();
        assertSame(ALICE_DELETED, follower.current());
    }

    @Test
    void aPolicyLastReadMoreThanThreeRefreshesAgoIsNotInForce() {
        follower.refresh();
        tablesAnswer.set(false);
        advanceMillis(3_001);
        follower.refresh();
        assertNull(follower.current());
    }

    @Test
    void aReadAfterAStalePolicyPutsTheNewOneInForce() {
        follower.refresh();
        tablesAnswer.set(false);
        advanceMillis(10_000);
        follower.refresh();
        tablesAnswer.set(true);
        follower.refresh();
        assertSame(ALICE_DELETED, follower.current());
    }

    @Test
    void theAgeIsTheTimeSinceTheLastSuccessfulRead() {
        follower.refresh();
        advanceMillis(1_000);
        tablesAnswer.set(false);
        follower.refresh();
        advanceMillis(1_500);
        assertEquals(2.5, follower.ageSeconds());
    }

    @Test
    void theAgeIsUnknownBeforeTheFirstRead() {
        tablesAnswer.set(false);
        follower.refresh();
        assertEquals(Double.NaN, follower.ageSeconds());
    }

    @Test
    void aReadIsAsOldAsItsQuestionNotItsAnswer() {
        RowPolicyFollower slowlyAnswered = new RowPolicyFollower(() -> {
            advanceMillis(4_000);
            return ALICE_DELETED;
        }, "db.deletions", nanos::get);
        slowlyAnswered.refresh();
        assertNull(slowlyAnswered.current());
    }
}
