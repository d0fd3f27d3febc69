package io.sluice.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

class ProjectTest {
    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

    @Test
    void theProjectsOwnKeyIsAccepted() {
        String key = Secrets.newKey();
        Project project = project(ProjectKey.of("k1", key, null));
        assertTrue(project.hasActiveKey(Secrets.sha256(key), NOW));
    }

    @Test
    void anotherKeyIsRefused() {
        Project project = project(ProjectKey.of("k1", Secrets.newKey(), null));
        assertFalse(project.hasActiveKey(Secrets.sha256(Secrets.newKey()), NOW));
    }

    @Test
    void anExpiredKeyIsRefused() {
        String key = Secrets.newKey();
        Project project = project(ProjectKey.of("k1", key, NOW.minusSeconds(1)));
        assertFalse(project.hasActiveKey(Secrets.sha256(key), NOW));
    }

    @Test
    void theRegistryRecordHoldsTheKeysHashNeverTheKey() throws Exception {
        String key = Secrets.newKey();
        byte[] json = ProjectJson.write(project(ProjectKey.of("k1", key, null)));
        assertFalse(new String(json, java.nio.charset.StandardCharsets.UTF_8).contains(key.substring(Secrets.KEY_PREFIX.length())));
        assertTrue(ProjectJson.read(json).hasActiveKey(Secrets.sha256(key), NOW));
    }

    @Test
    void tokensCarry128AndKeys256RandomBits() {
        assertEquals(22, Secrets.newToken().length()); // 16 bytes, base64url without padding
        assertEquals(Secrets.KEY_PREFIX.length() + 43, Secrets.newKey().length()); // 32 bytes
    }

    private static Project project(ProjectKey key) {
        return new Project("token", "shop", false, List.of(key), NOW);
    }
}
