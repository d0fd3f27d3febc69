package io.sluice.projects;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

class DsnKeyTest {
    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

    @Test
    void aKeyWithoutOriginsAllowsAnyOriginAndNone() {
        DsnKey key = DsnKey.create(NOW);
        assertTrue(key.allowsOrigin("https://anywhere.example"));
        assertTrue(key.allowsOrigin(null));
    }

    @Test
    void aKeyWithOriginsAllowsOnlyThoseIgnoringCaseAndATrailingSlash() {
        DsnKey key = DsnKey.create(NOW).withAllowedOrigins(List.of("https://Shop.example/", "http://localhost:3000"));
        assertTrue(key.allowsOrigin("https://shop.example"));
        assertTrue(key.allowsOrigin("http://localhost:3000"));
        assertFalse(key.allowsOrigin("https://evil.example"));
        assertFalse(key.allowsOrigin("http://localhost:3001"));
    }

    @Test
    void aKeyWithOriginsRefusesARequestWithoutOrigin() {
        assertFalse(DsnKey.create(NOW).withAllowedOrigins(List.of("https://shop.example")).allowsOrigin(null));
    }

    @Test
    void aKeyIsActiveUntilItsExpiry() {
        DsnKey key = DsnKey.create(NOW).withExpiresAt(NOW.plusSeconds(10));
        assertTrue(key.activeAt(NOW.plusSeconds(9)));
        assertFalse(key.activeAt(NOW.plusSeconds(10)));
        assertTrue(DsnKey.create(NOW).activeAt(NOW.plusSeconds(1_000_000_000)));
    }
}
