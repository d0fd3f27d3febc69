package io.sluice.sink.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RowPolicyTest {
    private static final long NOW = 1_800_000_000_000L;
    private static final RowPolicy ALICE_OF_SHOP_AND_ALL_OF_BLOG = new RowPolicy(Deletions.of(List.of(
            new Deletions.Deletion("shop", "alice"), new Deletions.Deletion("blog", ""))), Map.of());

    private static boolean dropped(RowPolicy policy, byte[] row) {
        return policy.stored(row, NOW) == null;
    }

    private static boolean dropped(Deletions deletions, byte[] row) {
        return dropped(new RowPolicy(deletions, Map.of()), row);
    }

    private static byte[] row(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aHistoryRowOfADeletedUserIsCovered() {
        assertTrue(dropped(ALICE_OF_SHOP_AND_ALL_OF_BLOG, row("{\"event_id\":\"e1\",\"project\":\"shop\",\"payload\":{\"user_id\":\"x\"},\"user_id\":\"alice\"}")));
    }

    @Test
    void theSameUserIdInAnotherProjectIsNotCovered() {
        assertFalse(dropped(Deletions.of(List.of(new Deletions.Deletion("shop", "alice"))), row("{\"project\":\"news\",\"user_id\":\"alice\"}")));
    }

    @Test
    void anotherUserOfTheProjectIsNotCovered() {
        assertFalse(dropped(ALICE_OF_SHOP_AND_ALL_OF_BLOG, row("{\"project\":\"shop\",\"user_id\":\"bob\"}")));
    }

    @Test
    void aRowWithoutAUserIsNotCoveredByAUsersDeletion() {
        assertFalse(dropped(ALICE_OF_SHOP_AND_ALL_OF_BLOG, row("{\"project\":\"shop\",\"minute\":1700000000,\"requests\":4}")));
    }

    @Test
    void everyRowOfADeletedProjectIsCoveredAggregatesIncluded() {
        assertTrue(dropped(ALICE_OF_SHOP_AND_ALL_OF_BLOG, row("{\"minute\":1700000000,\"project\":\"blog\",\"requests\":4}")));
        assertTrue(dropped(ALICE_OF_SHOP_AND_ALL_OF_BLOG, row("{\"project\":\"blog\",\"user_id\":\"bob\"}")));
    }

    @Test
    void aUserOfAProjectWithDeletedUsersIsReadAfterItsProject() {
        assertTrue(dropped(ALICE_OF_SHOP_AND_ALL_OF_BLOG, row("{\"project\":\"shop\",\"url\":\"/a\",\"user_id\":\"alice\"}")));
    }

    @Test
    void aNestedProjectFieldIsNotTheRowsProject() {
        assertFalse(dropped(ALICE_OF_SHOP_AND_ALL_OF_BLOG, row("{\"tags\":{\"project\":\"blog\"},\"project\":\"shop\",\"user_id\":\"bob\"}")));
    }

    @Test
    void aRowWhoseProjectCannotBeReadIsLeftToClickHouse() {
        assertFalse(dropped(ALICE_OF_SHOP_AND_ALL_OF_BLOG, row("{\"event_id\":\"e1\",\"proj")));
    }

    private static final RowPolicy WEEKLY = new RowPolicy(Deletions.NONE, Map.of("weekly", 7));

    @Test
    void aRowOfAProjectWithItsOwnRetentionIsStoredWithIt() {
        long minute = NOW / 1000 - 60;
        assertEquals("{\"project\":\"weekly\",\"minute\":" + minute + ",\"requests\":4,\"retention_days\":7}",
                new String(WEEKLY.stored(row("{\"project\":\"weekly\",\"minute\":" + minute + ",\"requests\":4}"), NOW),
                        StandardCharsets.UTF_8));
    }

    @Test
    void aHistoryRowOlderThanItsProjectsRetentionIsDropped() {
        assertTrue(dropped(WEEKLY, row("{\"event_id\":\"e\",\"project\":\"weekly\",\"timestamp\":" + (NOW - Duration.ofDays(7).toMillis() - 1) + "}")));
    }

    @Test
    void anHourRowWithinItsProjectsRetentionIsStored() {
        assertFalse(dropped(WEEKLY, row("{\"project\":\"weekly\",\"hour\":" + (NOW / 1000 - Duration.ofDays(6).toSeconds()) + "}")));
    }

    @Test
    void aRowOfAProjectWithoutItsOwnRetentionIsStoredAsItIs() {
        byte[] row = row("{\"project\":\"other\",\"timestamp\":1}");
        assertSame(row, WEEKLY.stored(row, NOW));
    }

    @Test
    void aRowAlreadyStampedWithItsRetentionIsStoredWithTheFieldOnce() {
        long minute = NOW / 1000 - 60;
        assertEquals("{\"project\":\"weekly\",\"minute\":" + minute + ",\"requests\":4,\"retention_days\":7}",
                new String(WEEKLY.stored(row("{\"project\":\"weekly\",\"minute\":" + minute + ",\"requests\":4,\"retention_days\":7}"),
                        NOW), StandardCharsets.UTF_8));
    }

    @Test
    void aRowStampedWithAnEarlierRetentionHasItReplaced() {
        long minute = NOW / 1000 - 60;
        assertEquals("{\"project\":\"weekly\",\"minute\":" + minute + ",\"retention_days\":7}",
                new String(WEEKLY.stored(row("{\"project\":\"weekly\",\"minute\":" + minute + ",\"retention_days\":120}"), NOW),
                        StandardCharsets.UTF_8));
    }
}
