package io.sluice.sink.lifecycle;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class DeletionsTest {
    private static final Deletions ALICE_OF_SHOP_AND_ALL_OF_BLOG = Deletions.of(List.of(
            new Deletions.Deletion("shop", "alice"), new Deletions.Deletion("blog", "")));

    private static byte[] row(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aHistoryRowOfADeletedUserIsCovered() {
        assertTrue(ALICE_OF_SHOP_AND_ALL_OF_BLOG.covers(row("{\"event_id\":\"e1\",\"project\":\"shop\",\"payload\":{\"user_id\":\"x\"},\"user_id\":\"alice\"}")));
    }

    @Test
    void theSameUserIdInAnotherProjectIsNotCovered() {
        assertFalse(Deletions.of(List.of(new Deletions.Deletion("shop", "alice"))).covers(row("{\"project\":\"news\",\"user_id\":\"alice\"}")));
    }

    @Test
    void anotherUserOfTheProjectIsNotCovered() {
        assertFalse(ALICE_OF_SHOP_AND_ALL_OF_BLOG.covers(row("{\"project\":\"shop\",\"user_id\":\"bob\"}")));
    }

    @Test
    void aRowWithoutAUserIsNotCoveredByAUsersDeletion() {
        assertFalse(ALICE_OF_SHOP_AND_ALL_OF_BLOG.covers(row("{\"project\":\"shop\",\"minute\":1700000000,\"requests\":4}")));
    }

    @Test
    void everyRowOfADeletedProjectIsCoveredAggregatesIncluded() {
        assertTrue(ALICE_OF_SHOP_AND_ALL_OF_BLOG.covers(row("{\"minute\":1700000000,\"project\":\"blog\",\"requests\":4}")));
        assertTrue(ALICE_OF_SHOP_AND_ALL_OF_BLOG.covers(row("{\"project\":\"blog\",\"user_id\":\"bob\"}")));
    }

    @Test
    void aUserOfAProjectWithDeletedUsersIsReadAfterItsProject() {
        assertTrue(ALICE_OF_SHOP_AND_ALL_OF_BLOG.covers(row("{\"project\":\"shop\",\"url\":\"/a\",\"user_id\":\"alice\"}")));
    }

    @Test
    void aNestedProjectFieldIsNotTheRowsProject() {
        assertFalse(ALICE_OF_SHOP_AND_ALL_OF_BLOG.covers(row("{\"tags\":{\"project\":\"blog\"},\"project\":\"shop\",\"user_id\":\"bob\"}")));
    }

    @Test
    void aRowWhoseProjectCannotBeReadIsLeftToClickHouse() {
        assertFalse(ALICE_OF_SHOP_AND_ALL_OF_BLOG.covers(row("{\"event_id\":\"e1\",\"proj")));
    }
}
