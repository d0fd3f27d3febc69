package io.sluice.e2e.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.cli.CliRunner;
import io.sluice.config.Settings;
import io.sluice.e2e.FollowingRegistry;
import io.sluice.projects.DsnKey;
import io.sluice.projects.Project;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * DSN keys through {@code ./sluice projects}, against the real broker: the numeric id and DSN that
 * create prints find the project in a registry that follows the topic; rotated and revoked DSN
 * keys behave as private keys do.
 */
@ExtendWith(RealEngines.class)
@Timeout(120)
class DsnKeysCliIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path stateDir;

    static Settings settings;
    static FollowingRegistry registry;

    @BeforeAll
    static void start(Engines engines) throws Exception {
        Map<String, String> values = TestSettings.isolated("dsn_cli_it", engines, stateDir).toMap();
        values.put("SLUICE_PUBLIC_URL", "https://ingest.example/");
        settings = new Settings(values);
        registry = FollowingRegistry.start(settings);
    }

    @AfterAll
    static void stop() {
        registry.close();
    }

    @Test
    void createPrintsTheNumericIdAndADsnThatFindTheProject() throws Exception {
        JsonNode created = cliJson("projects", "create", "--name", "sdk-app", "--json");
        String token = created.get("token").asText();
        assertTrue(created.get("id").isIntegralNumber(), created.toString());
        long id = created.get("id").longValue();
        assertEquals(Project.numericIdOf(token), id);
        String dsn = created.get("dsn").asText();
        assertTrue(dsn.matches("https://[0-9a-f]{32}@ingest\\.example/" + id), dsn);
        String publicKey = dsn.substring("https://".length(), dsn.indexOf('@'));

        assertEquals(token, Await.until(FollowingRegistry.IN_FORCE, token, () -> tokenById(registry, id)), "a following registry");
        assertEquals(publicKey, registry.byNumericId(id).activeDsnKey(publicKey, Instant.now()).publicKey());
        try (FollowingRegistry fresh = FollowingRegistry.start(settings)) {
            assertEquals(token, tokenById(fresh, id), "a registry started afterwards");
            assertEquals(publicKey, fresh.byNumericId(id).activeDsnKey(publicKey, Instant.now()).publicKey());
        }
    }

    private static String tokenById(FollowingRegistry from, long id) {
        Project project = from.byNumericId(id);
        return project == null ? null : project.token();
    }

    @Test
    void showAndListPrintTheIdAndTheDsnKeys() throws Exception {
        JsonNode created = cliJson("projects", "create", "--name", "shown", "--json");
        String token = created.get("token").asText();
        JsonNode shown = cliJson("projects", "show", token, "--json");
        assertEquals(created.get("id").longValue(), shown.get("id").longValue());
        assertEquals(created.get("dsn").asText(), shown.get("dsn").asText());
        assertEquals(1, shown.get("dsn_keys").size());
        assertEquals(created.get("dsn").asText(), shown.get("dsn_keys").get(0).get("dsn").asText());
        assertEquals(0, shown.get("dsn_keys").get(0).get("allowed_origins").size());

        JsonNode listed = null;
        for (JsonNode project : cliJson("projects", "list", "--json")) {
            if (project.get("token").asText().equals(token)) {
                listed = project;
            }
        }
        assertEquals(shown, listed);
        String text = cli("projects", "show", token);
        assertTrue(text.contains("  id:      " + created.get("id").longValue() + "\n"), text);
        assertTrue(text.contains(": " + created.get("dsn").asText()), text);
        assertTrue(cli("projects", "list").contains(created.get("dsn").asText()));
    }

    @Test
    void aRotatedDsnKeyWorksAndTheOldOneExpiresAfterTheGrace() throws Exception {
        JsonNode created = cliJson("projects", "create", "--name", "rotated-dsn", "--json");
        String token = created.get("token").asText();
        String oldKey = publicKeyOf(created.get("dsn").asText());
        JsonNode rotated = cliJson("projects", "rotate-dsn-key", token, "--grace", "2s", "--json");
        String newKey = rotated.get("public_key").asText();
        assertEquals(publicKeyOf(rotated.get("dsn").asText()), newKey);

        assertEquals(newKey, registry.awaitInForce(token, newKey, project -> activeKey(project, newKey)));
        assertEquals(oldKey, activeKey(registry.find(token), oldKey), "the old DSN key works during the grace period");
        Instant expires = Instant.parse(rotated.get("old_keys_expire_at").asText());
        Project project = registry.find(token);
        assertNull(project.activeDsnKey(oldKey, expires), "and not once the grace has passed");
        assertEquals(newKey, project.activeDsnKey(newKey, expires.plusSeconds(3600)).publicKey());
        assertEquals(2, cliJson("projects", "show", token, "--json").get("dsn_keys").size());
    }

    @Test
    void aRevokedDsnKeyIsGoneAtOnce() throws Exception {
        JsonNode created = cliJson("projects", "create", "--name", "revoked-dsn", "--json");
        String token = created.get("token").asText();
        String key = publicKeyOf(created.get("dsn").asText());
        String keyId = cliJson("projects", "show", token, "--json").get("dsn_keys").get(0).get("id").asText();
        assertEquals(key, registry.awaitInForce(token, key, project -> activeKey(project, key)));

        assertEquals("revoked DSN key " + keyId + " of revoked-dsn (" + token + ")\n", cli("projects", "revoke-dsn-key", token, keyId));
        // The project is still there, its key gone: a missing project would read null too.
        assertEquals(false, registry.awaitInForce(token, false, project -> activeKey(project, key) != null));
        assertEquals(0, cliJson("projects", "show", token, "--json").get("dsn_keys").size());
        assertFalse(cliJson("projects", "show", token, "--json").has("dsn"));
    }

    @Test
    void revokingAnUnknownDsnKeyExitsWith1() throws Exception {
        String token = cliJson("projects", "create", "--name", "no-such-dsn", "--json").get("token").asText();
        CliRunner.Result result = CliRunner.run(settings, "projects", "revoke-dsn-key", token, "nope");
        assertEquals(1, result.exitCode());
        assertEquals("sluice: project " + token + " has no key with id nope\n", result.err());
    }

    @Test
    void revokeDsnKeyWithoutAKeyIdExitsWith2AndTheUsage() {
        CliRunner.Result result = CliRunner.run(settings, "projects", "revoke-dsn-key", "some-token");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().equals("sluice: Missing required parameter: 'KEY_ID' (./sluice projects revoke-dsn-key --help shows its options)\n"), result.err());
    }

    @Test
    void setDsnOriginsRestrictsTheKeyAndAnEmptyListAllowsAnyAgain() throws Exception {
        JsonNode created = cliJson("projects", "create", "--name", "browser", "--json");
        String token = created.get("token").asText();
        String keyId = cliJson("projects", "show", token, "--json").get("dsn_keys").get(0).get("id").asText();

        cli("projects", "set-dsn-origins", token, keyId, "--origins", "https://shop.example, http://localhost:3000/");
        JsonNode key = cliJson("projects", "show", token, "--json").get("dsn_keys").get(0);
        assertEquals("[\"https://shop.example\",\"http://localhost:3000\"]", key.get("allowed_origins").toString());
        List<String> origins = registry.awaitInForce(token, List.of("https://shop.example", "http://localhost:3000"),
                project -> project.dsnKeys().get(0).allowedOrigins());
        assertEquals(List.of("https://shop.example", "http://localhost:3000"), origins);

        cli("projects", "set-dsn-origins", token, keyId, "--origins", "");
        assertEquals(0, cliJson("projects", "show", token, "--json").get("dsn_keys").get(0).get("allowed_origins").size());
        assertEquals(2, CliRunner.run(settings, "projects", "set-dsn-origins", token, keyId, "--origins", "shop.example").exitCode());
    }

    @Test
    void aWrongPublicUrlIsAClearErrorWithExitCode1() {
        CliRunner.Result result = CliRunner.run(settings.with(Map.of("SLUICE_PUBLIC_URL", "ingest.example")),
                "projects", "list");
        assertEquals(1, result.exitCode());
        assertTrue(result.err().startsWith("sluice: SLUICE_PUBLIC_URL must be an http:// or https:// URL"), result.err());
    }

    private static String activeKey(Project project, String publicKey) {
        DsnKey key = project.activeDsnKey(publicKey, Instant.now());
        return key == null ? null : key.publicKey();
    }

    private static String publicKeyOf(String dsn) {
        return dsn.substring(dsn.indexOf("://") + 3, dsn.indexOf('@'));
    }

    private static String cli(String... argv) {
        CliRunner.Result result = CliRunner.run(settings, argv);
        assertEquals(0, result.exitCode(), result.err());
        return result.out();
    }

    private static JsonNode cliJson(String... argv) throws Exception {
        return JSON.readTree(cli(argv));
    }
}
