package io.sluice.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

    @Test
    void theNumericIdIsTheFirstSixBytesOfTheTokensSha256() {
        // SHA-256("token") = 3c469e9d6c5875d37a43f353d4f88e61fcf812c66eee3457465a40b0da4153e0
        assertEquals(0x3c469e9d6c58L, Project.numericIdOf("token"));
        assertEquals(66_274_006_494_296L, project(ProjectKey.of("k1", Secrets.newKey(), null)).numericId());
    }

    @Test
    void everyNumericIdIsPositiveAndExactAsAJavaScriptNumber() {
        for (int i = 0; i < 10_000; i++) {
            long id = Project.numericIdOf(Secrets.newToken());
            assertTrue(id >= 0 && id < (1L << 48), "id " + id);
        }
    }

    @Test
    void anActiveDsnKeyIsFoundByItsPublicKey() {
        DsnKey key = DsnKey.create(NOW);
        Project project = project(ProjectKey.of("k1", Secrets.newKey(), null)).withDsnKeys(List.of(key));
        assertEquals(key, project.activeDsnKey(key.publicKey(), NOW));
    }

    @Test
    void anExpiredDsnKeyIsNotFound() {
        DsnKey key = DsnKey.create(NOW).withExpiresAt(NOW.minusSeconds(1));
        Project project = project(ProjectKey.of("k1", Secrets.newKey(), null)).withDsnKeys(List.of(key));
        assertNull(project.activeDsnKey(key.publicKey(), NOW));
    }

    @Test
    void anUnknownPublicKeyIsNotFound() {
        Project project = project(ProjectKey.of("k1", Secrets.newKey(), null)).withDsnKeys(List.of(DsnKey.create(NOW)));
        assertNull(project.activeDsnKey(Secrets.newPublicKey(), NOW));
        assertNull(project.activeDsnKey(null, NOW));
    }

    @Test
    void aPrivateKeyIsNeverADsnKeyNorADsnKeyAPrivateKey() {
        String privateKey = Secrets.newKey();
        DsnKey dsnKey = DsnKey.create(NOW);
        Project project = project(ProjectKey.of("k1", privateKey, null)).withDsnKeys(List.of(dsnKey));
        assertNull(project.activeDsnKey(privateKey, NOW));
        assertFalse(project.hasActiveKey(Secrets.sha256(dsnKey.publicKey()), NOW));
    }

    @Test
    void publicKeysAre32LowerCaseHexDigits() {
        assertTrue(Secrets.newPublicKey().matches("[0-9a-f]{32}"));
    }

    @Test
    void aRecordWrittenBeforeDsnKeysReadsWithNone() throws Exception {
        String old = "{\"token\":\"t\",\"name\":\"shop\",\"disabled\":false,\"keys\":[],"
                + "\"created_at\":\"2026-11-22T12:00:00Z\"}";
        Project project = ProjectJson.read(old.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(List.of(), project.dsnKeys());
        assertEquals("shop", project.name());
    }

    @Test
    void dsnKeysSurviveTheRegistryRecord() throws Exception {
        DsnKey key = DsnKey.create(NOW).withExpiresAt(NOW.plusSeconds(60)).withAllowedOrigins(List.of("https://shop.example"));
        Project project = project(ProjectKey.of("k1", Secrets.newKey(), null)).withDsnKeys(List.of(key));
        byte[] json = ProjectJson.write(project);
        String text = new String(json, java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(text.contains("\"dsn_keys\":[{\"id\":\"" + key.id() + "\",\"public_key\":\"" + key.publicKey() + "\""), text);
        assertEquals(project, ProjectJson.read(json));
    }

    @Test
    void aRevokedDsnKeyIsNoLongerADsnKeyAndTheRecordRemembersIt() throws Exception {
        DsnKey revoked = DsnKey.create(NOW);
        DsnKey kept = DsnKey.create(NOW);
        Project project = project(ProjectKey.of("k1", Secrets.newKey(), null)).withDsnKeys(List.of(revoked, kept))
                .withDsnKeyRevoked(revoked.id(), NOW.plusSeconds(5));
        assertEquals(List.of(kept), project.dsnKeys());
        assertNull(project.activeDsnKey(revoked.publicKey(), NOW));
        assertEquals(List.of(new RevokedDsnKey(revoked.id(), revoked.publicKey(), NOW.plusSeconds(5))), project.revokedDsnKeys());
        byte[] json = ProjectJson.write(project);
        String text = new String(json, java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(text.contains("\"revoked_dsn_keys\":[{\"id\":\"" + revoked.id() + "\",\"public_key\":\"" + revoked.publicKey()
                + "\",\"revoked_at\":\"2026-11-22T12:00:05Z\"}]"), text);
        assertEquals(project, ProjectJson.read(json));
    }

    @Test
    void revokingADsnKeyTheProjectDoesNotHaveChangesNothing() {
        Project project = project(ProjectKey.of("k1", Secrets.newKey(), null)).withDsnKeys(List.of(DsnKey.create(NOW)));
        assertEquals(project, project.withDsnKeyRevoked("no-such-id", NOW));
    }

    @Test
    void onlyTheLastHundredRevokedDsnKeysAreRemembered() {
        Project project = project(ProjectKey.of("k1", Secrets.newKey(), null));
        List<DsnKey> created = new java.util.ArrayList<>();
        for (int i = 0; i < 101; i++) {
            DsnKey key = DsnKey.create(NOW);
            created.add(key);
            project = project.withDsnKeys(List.of(key)).withDsnKeyRevoked(key.id(), NOW.plusSeconds(i));
        }
        assertEquals(100, project.revokedDsnKeys().size());
        assertEquals(created.get(1).publicKey(), project.revokedDsnKeys().get(0).publicKey());
        assertEquals(created.get(100).publicKey(), project.revokedDsnKeys().get(99).publicKey());
    }

    @Test
    void aRecordWrittenBeforeRevokedDsnKeysWereKeptReadsWithNone() throws Exception {
        String old = "{\"token\":\"t\",\"name\":\"shop\",\"disabled\":false,\"keys\":[],"
                + "\"created_at\":\"2026-11-22T12:00:00Z\",\"quota\":null,\"endpoint_quotas\":{},"
                + "\"dsn_keys\":[{\"id\":\"d1\",\"public_key\":\"0123456789abcdef0123456789abcdef\","
                + "\"created_at\":\"2026-11-22T12:00:00Z\",\"expires_at\":null,\"allowed_origins\":[]}]}";
        Project project = ProjectJson.read(old.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(List.of(), project.revokedDsnKeys());
        assertEquals("0123456789abcdef0123456789abcdef", project.activeDsnKey("0123456789abcdef0123456789abcdef", NOW).publicKey());
    }

    @Test
    void aRecordWrittenBeforeDataScrubbingScrubsByDefault() throws Exception {
        String old = "{\"token\":\"t\",\"name\":\"shop\",\"disabled\":false,\"keys\":[],"
                + "\"created_at\":\"2026-11-22T12:00:00Z\"}";
        Project project = ProjectJson.read(old.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(DataScrubbing.DEFAULT, project.dataScrubbing());
        assertFalse(project.dataScrubbing().disabled());
    }

    @Test
    void dataScrubbingSurvivesTheRegistryRecord() throws Exception {
        Project project = project(ProjectKey.of("k1", Secrets.newKey(), null))
                .withDataScrubbing(new DataScrubbing(true, List.of("iban", "x-shop-pin")));
        byte[] json = ProjectJson.write(project);
        String text = new String(json, java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(text.contains("\"data_scrubbing\":{\"disabled\":true,\"sensitive_fields\":[\"iban\",\"x-shop-pin\"]}"), text);
        assertEquals(project, ProjectJson.read(json));
    }

    @Test
    void aRecordWrittenBeforeInboundFiltersFiltersAsSentryDoesForANewProject() throws Exception {
        String old = "{\"token\":\"t\",\"name\":\"shop\",\"disabled\":false,\"keys\":[],"
                + "\"created_at\":\"2026-11-22T12:00:00Z\"}";
        Project project = ProjectJson.read(old.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(InboundFilters.DEFAULT, project.inboundFilters());
        assertEquals(List.of(InboundFilter.HEALTH_CHECK, InboundFilter.BROWSER_EXTENSIONS, InboundFilter.WEB_CRAWLERS,
                InboundFilter.LEGACY_BROWSERS), List.copyOf(project.inboundFilters().on()));
    }

    @Test
    void inboundFiltersSurviveTheRegistryRecord() throws Exception {
        Project project = project(ProjectKey.of("k1", Secrets.newKey(), null))
                .withInboundFilters(new InboundFilters(java.util.Set.of(InboundFilter.LOCALHOST, InboundFilter.HEALTH_CHECK),
                        Globs.of(List.of("ChunkLoadError: *")), Globs.of(List.of("*-dev"))));
        byte[] json = ProjectJson.write(project);
        String text = new String(json, java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(text.contains("\"inbound_filters\":{\"on\":[\"health_check\",\"localhost\"],"
                + "\"error_messages\":[\"ChunkLoadError: *\"],\"releases\":[\"*-dev\"]}"), text);
        assertEquals(project, ProjectJson.read(json));
    }

    @Test
    void aFilterOfPatternsCannotBeSwitchedOn() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new InboundFilters(java.util.Set.of(InboundFilter.RELEASE), Globs.NONE, Globs.NONE));
        assertEquals("'release' is not switched on or off: it applies the project's patterns", refused.getMessage());
    }

    @Test
    void aRecordWrittenBeforeTheLifecycleIsNotDeleted() throws Exception {
        String old = "{\"token\":\"t\",\"name\":\"shop\",\"disabled\":false,\"keys\":[],"
                + "\"created_at\":\"2026-11-22T12:00:00Z\"}";
        Project project = ProjectJson.read(old.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(Lifecycle.DEFAULT, project.lifecycle());
        assertFalse(project.lifecycle().deleted());
    }

    @Test
    void theLifecycleSurvivesTheRegistryRecord() throws Exception {
        Project project = project(ProjectKey.of("k1", Secrets.newKey(), null))
                .withLifecycle(new Lifecycle(java.time.Instant.parse("2026-12-07T05:00:00Z")));
        byte[] json = ProjectJson.write(project);
        String text = new String(json, java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(text.contains("\"lifecycle\":{\"deleted_at\":\"2026-12-07T05:00:00Z\"}"), text);
        assertEquals(project, ProjectJson.read(json));
    }

    private static Project project(ProjectKey key) {
        return new Project("token", "shop", false, List.of(key), NOW);
    }
}
