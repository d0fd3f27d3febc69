package io.sluice.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ProjectTableTest {
    private final ProjectTable table = new ProjectTable(token -> token.startsWith("same-id") ? 42 : Project.numericIdOf(token));

    @AfterEach
    void close() {
        table.close();
    }

    @Test
    void aStoredProjectIsFoundByTokenKeyDsnKeyAndNumericId() throws IOException {
        Project project = put(project("tok-a", "slk_a", "aaaa"));
        assertEquals(project, table.find("tok-a"));
        assertEquals("tok-a", table.tokenOwningKey(Secrets.sha256("slk_a")));
        assertEquals("tok-a", table.tokenOwningDsnKey("aaaa"));
        assertEquals(project, table.byNumericId(Project.numericIdOf("tok-a")));
        assertNull(table.find("tok-b"));
        assertNull(table.tokenOwningKey(Secrets.sha256("slk_b")));
        assertNull(table.tokenOwningDsnKey("bbbb"));
    }

    @Test
    void aChangedProjectIsAnsweredFromItsLatestRecord() throws IOException {
        put(project("tok-a", "slk_a", "aaaa"));
        assertEquals("tok-a", table.find("tok-a").token()); // cached now
        Project disabled = put(project("tok-a", "slk_a", "aaaa").withDisabled(true));
        assertEquals(disabled, table.find("tok-a"));
    }

    @Test
    void aReplacedKeyNoLongerNamesItsFormerOwnerAndARemovedDsnKeyIsRemembered() throws IOException {
        put(project("tok-a", "slk_a", "aaaa"));
        put(project("tok-a", "slk_new", "cccc"));
        assertNull(table.tokenOwningKey(Secrets.sha256("slk_a")));
        assertEquals("tok-a", table.tokenOwningKey(Secrets.sha256("slk_new")));
        assertNull(table.tokenOwningDsnKey("aaaa"));
        assertTrue(table.isOrWasDsnKey("aaaa"));
        assertFalse(table.isOrWasDsnKey("dddd"));
    }

    @Test
    void aDeletedProjectIsNotFoundAndOthersStay() throws IOException {
        put(project("tok-a", "slk_a", "aaaa"));
        Project b = put(project("tok-b", "slk_b", "bbbb"));
        table.remove("tok-a");
        assertNull(table.find("tok-a"));
        assertNull(table.tokenOwningKey(Secrets.sha256("slk_a")));
        assertEquals(b, table.find("tok-b"));
        assertEquals(1, table.size());
        assertEquals(List.of(b), table.all());
    }

    @Test
    void twoTokensWithOneNumericIdAreNeitherFoundByIt() throws IOException {
        put(project("same-id-a", "slk_a", "aaaa"));
        put(project("same-id-b", "slk_b", "bbbb"));
        assertNull(table.byNumericId(42));
        assertEquals("same-id-a", table.find("same-id-a").token());
    }

    @Test
    void afterOneOfTwoCollidingTokensIsDeletedTheOtherIsFoundByTheId() throws IOException {
        put(project("same-id-a", "slk_a", "aaaa"));
        put(project("same-id-b", "slk_b", "bbbb"));
        table.remove("same-id-a");
        assertEquals("same-id-b", table.byNumericId(42).token());
    }

    @Test
    void storingTheSameProjectAgainIsNoCollision() throws IOException {
        put(project("same-id-a", "slk_a", "aaaa"));
        put(project("same-id-a", "slk_a", "aaaa"));
        assertEquals("same-id-a", table.byNumericId(42).token());
    }

    @Test
    void manyProjectsAreEachFoundAfterTheIndexesGrewAndSomeWereDeleted() throws IOException {
        for (int i = 0; i < 5_000; i++) {
            put(project("tok-" + i, "slk_" + i, "dsn" + i));
        }
        for (int i = 0; i < 5_000; i += 3) {
            table.remove("tok-" + i);
        }
        for (int i = 0; i < 5_000; i++) {
            boolean kept = i % 3 != 0;
            assertEquals(kept ? "tok-" + i : null, table.tokenOwningKey(Secrets.sha256("slk_" + i)), "key " + i);
            assertEquals(kept ? "tok-" + i : null, table.tokenOwningDsnKey("dsn" + i), "dsn key " + i);
            assertEquals(kept, table.find("tok-" + i) != null, "token " + i);
        }
    }

    @Test
    void unknownTokensTakeNoHeap() throws IOException {
        for (int i = 0; i < 1_000; i++) {
            put(project("tok-" + i, "slk_" + i, "dsn" + i));
        }
        long before = table.indexBytes();
        for (int i = 0; i < 100_000; i++) {
            assertNull(table.find("unknown-" + i));
        }
        assertEquals(before, table.indexBytes());
    }

    private Project put(Project project) throws IOException {
        table.put(project, ProjectJson.write(project));
        return project;
    }

    private static Project project(String token, String key, String dsnKey) {
        return new Project(token, "name of " + token, false, List.of(ProjectKey.of("k1", key, null)), Instant.parse("2026-01-01T00:00:00Z"),
                null, null, List.of(new DsnKey("d1", dsnKey, Instant.parse("2026-01-01T00:00:00Z"), null, List.of())));
    }
}
