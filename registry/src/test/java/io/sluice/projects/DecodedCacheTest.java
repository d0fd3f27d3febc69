package io.sluice.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;

import org.junit.jupiter.api.Test;

class DecodedCacheTest {
    private final DecodedCache cache = new DecodedCache();
    private final AtomicInteger reads = new AtomicInteger();

    @Test
    void aProjectLookedUpAgainIsNotDecodedAgain() {
        Project first = cache.project("tok", 1, reading(project("tok")));
        assertSame(first, cache.project("tok", 1, reading(project("tok"))));
        assertEquals(1, reads.get());
    }

    @Test
    void aProjectWithANewerRecordIsDecodedFromIt() {
        cache.project("tok", 1, reading(project("tok")));
        Project disabled = project("tok").withDisabled(true);
        assertSame(disabled, cache.project("tok", 2, reading(disabled)));
    }

    @Test
    void anUnknownTokenIsRememberedAsNone() {
        assertNull(cache.project("unknown", DecodedCache.NO_RECORD, reading(project("x"))));
        assertNull(cache.project("unknown", DecodedCache.NO_RECORD, reading(project("x"))));
        assertEquals(0, reads.get()); // a stand-in is decoded instead: no stored record is read
    }

    @Test
    void aTokenLongerThanAnyMadeIsDecodedEveryTime() {
        String token = "t".repeat(DecodedCache.MAX_CACHED_TOKEN_LENGTH + 1);
        cache.project(token, 1, reading(project(token)));
        cache.project(token, 1, reading(project(token)));
        assertEquals(2, reads.get());
    }

    private LongFunction<Project> reading(Project project) {
        return address -> {
            reads.incrementAndGet();
            return project;
        };
    }

    private static Project project(String token) {
        return new Project(token, "name", false, List.of(), Instant.EPOCH);
    }
}
