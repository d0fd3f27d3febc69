package io.sluice.e2e.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

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
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * {@code ./sluice projects routes add|list|remove} against the real broker: the patterns reach a
 * registry that follows the topic, in order; a pattern that is none is refused before anything
 * changes.
 */
@ExtendWith(RealEngines.class)
@Timeout(120)
class RouteRulesCliIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path stateDir;

    static Settings settings;
    static FollowingRegistry registry;

    @BeforeAll
    static void start(Engines engines) throws Exception {
        settings = TestSettings.isolated("routes_cli_it", engines, stateDir).build();
        registry = FollowingRegistry.start(settings);
    }

    @AfterAll
    static void stop() {
        registry.close();
    }

    @Test
    void addedPatternsReachTheRegistryInOrderAndRemovedOnesLeaveIt() throws Exception {
        String token = JSON.readTree(cli("projects", "create", "--name", "routes-shop", "--json")).get("token").asText();
        cli("projects", "routes", "add", "--token", token, "--pattern", "/shops/*/orders/*");
        assertEquals("route rules of routes-shop (" + token + "): /shops/*/orders/*  /shops/{shop}/**\n",
                cli("projects", "routes", "add", "--token", token, "--pattern", "/shops/{shop}/**"));
        List<String> both = List.of("/shops/*/orders/*", "/shops/{shop}/**");
        assertEquals(both, registry.awaitInForce(token, both, project -> project.routeRules().patterns()));
        assertEquals("/shops/*/orders/*\n/shops/{shop}/**\n", cli("projects", "routes", "list", "--token", token));
        assertEquals("[\"/shops/*/orders/*\",\"/shops/{shop}/**\"]\n", cli("projects", "routes", "list", "--token", token, "--json"));
        JsonNode shown = JSON.readTree(cli("projects", "show", token, "--json"));
        assertEquals("[\"/shops/*/orders/*\",\"/shops/{shop}/**\"]", shown.get("route_rules").toString());

        cli("projects", "routes", "remove", "--token", token, "--pattern", "/shops/*/orders/*");
        List<String> rest = List.of("/shops/{shop}/**");
        assertEquals(rest, registry.awaitInForce(token, rest, project -> project.routeRules().patterns()));
    }

    @Test
    void aPatternThatIsNoneIsRefusedAsAUsageErrorAndChangesNothing() throws Exception {
        String token = JSON.readTree(cli("projects", "create", "--name", "routes-bad", "--json")).get("token").asText();
        CliRunner.Result refused = CliRunner.run(settings, "projects", "routes", "add", "--token", token, "--pattern", "shops/*");
        assertEquals(2, refused.exitCode(), refused.err());
        assertTrue(refused.err().startsWith("sluice: a route pattern starts with /"), refused.err());
        assertEquals("", cli("projects", "routes", "list", "--token", token));
    }

    @Test
    void removingAPatternTheProjectDoesNotHaveFails() throws Exception {
        String token = JSON.readTree(cli("projects", "create", "--name", "routes-none", "--json")).get("token").asText();
        CliRunner.Result failed = CliRunner.run(settings, "projects", "routes", "remove", "--token", token, "--pattern", "/x/*");
        assertEquals(1, failed.exitCode(), failed.err());
        assertEquals("sluice: project " + token + " has no route rule /x/*\n", failed.err());
    }

    private static String cli(String... argv) {
        CliRunner.Result result = CliRunner.run(settings, argv);
        assertEquals(0, result.exitCode(), result.err());
        return result.out();
    }
}
