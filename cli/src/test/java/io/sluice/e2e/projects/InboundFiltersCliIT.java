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
import io.sluice.projects.InboundFilter;
import io.sluice.projects.InboundFilters;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * {@code ./sluice projects set-filters} against the real broker: a new project has Sentry's default
 * filters; switches and patterns reach a registry that follows the topic, and {@code projects show}
 * (and its JSON) names them.
 */
@ExtendWith(RealEngines.class)
@Timeout(120)
class InboundFiltersCliIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path stateDir;

    static Settings settings;
    static FollowingRegistry registry;

    @BeforeAll
    static void start(Engines engines) throws Exception {
        settings = TestSettings.isolated("filters_cli_it", engines, stateDir).build();
        registry = FollowingRegistry.start(settings);
    }

    @AfterAll
    static void stop() {
        registry.close();
    }

    @Test
    void aNewProjectShowsSentrysDefaultFilters() throws Exception {
        String token = JSON.readTree(cli("projects", "create", "--name", "filters-new", "--json")).get("token").asText();
        assertTrue(cli("projects", "show", token).contains("\n  filters:   health_check, browser_extensions, web_crawlers, "
                + "legacy_browsers\n"), token);
        assertEquals("{\"on\":[\"health_check\",\"browser_extensions\",\"web_crawlers\",\"legacy_browsers\"],\"error_messages\":[],"
                + "\"releases\":[]}", JSON.readTree(cli("projects", "show", token, "--json")).get("inbound_filters").toString());
    }

    @Test
    void switchesAndPatternsReachTheRegistryAndShow() throws Exception {
        String token = JSON.readTree(cli("projects", "create", "--name", "filters-shop", "--json")).get("token").asText();
        assertEquals("inbound filters of filters-shop (" + token + "): health_check, localhost, browser_extensions, legacy_browsers; "
                        + "error messages ChunkLoadError: *, *invariant={418,423}*; releases *-dev\n",
                cli("projects", "set-filters", token, "--on", "localhost", "--off", "web-crawlers",
                        "--error-messages", "ChunkLoadError: *,*invariant={418,423}*", "--releases", "*-dev"));
        List<String> patterns = List.of("ChunkLoadError: *", "*invariant={418,423}*");
        assertEquals(patterns, registry.awaitInForce(token, patterns,
                project -> project.inboundFilters().errorMessages().patterns()));
        InboundFilters inForce = registry.find(token).inboundFilters();
        assertTrue(inForce.isOn(InboundFilter.LOCALHOST) && !inForce.isOn(InboundFilter.WEB_CRAWLERS), inForce.toString());
        JsonNode shown = JSON.readTree(cli("projects", "show", token, "--json")).get("inbound_filters");
        assertEquals("{\"on\":[\"health_check\",\"localhost\",\"browser_extensions\",\"legacy_browsers\"],"
                + "\"error_messages\":[\"ChunkLoadError: *\",\"*invariant={418,423}*\"],\"releases\":[\"*-dev\"]}", shown.toString());

        assertEquals("inbound filters of filters-shop (" + token + "): health_check, localhost, browser_extensions, legacy_browsers; "
                + "error messages ChunkLoadError: *, *invariant={418,423}*\n", cli("projects", "set-filters", token, "--releases", ""));
    }

    private static String cli(String... argv) {
        CliRunner.Result result = CliRunner.run(settings, argv);
        assertEquals(0, result.exitCode(), result.err());
        return result.out();
    }
}
