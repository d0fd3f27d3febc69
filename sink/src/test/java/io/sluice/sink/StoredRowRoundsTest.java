package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class StoredRowRoundsTest {
    @Test
    void rowsLeftAfterTheLastRoundFailTheChangeNamingTheirTablesAfterChangingThemEachRound() {
        List<String> changed = new ArrayList<>();
        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> new StoredRowRounds(List.of("db.a", "db.b"), 2)
                .run(table -> table.equals("db.b") ? 3 : 0, table -> {
                    changed.add(table);
                    return 3;
                }, "rows of user alice in project shop"));
        assertEquals("rows of user alice in project shop remain after 2 rounds (still being written: {db.b=3}); the change is "
                + "recorded and no sink stores such rows once it has read it: run it again", failure.getMessage());
        assertEquals(List.of("db.a", "db.b", "db.a", "db.b"), changed);
    }

    @Test
    void theRowsChangedInEveryRoundAreAddedUpPerTable() {
        int[] left = {2};
        Map<String, Long> changed = new StoredRowRounds(List.of("db.a"), 5).run(table -> left[0]--, table -> 4, "rows");
        assertEquals(Map.of("db.a", 12L), changed);
    }
}
