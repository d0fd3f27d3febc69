package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/** .github/dependabot.yml watches every place a dependency version is written: the poms, the Dockerfile, the compose file. */
class DependencyUpdatesTest {
    private static final Path ROOT = Path.of("..");

    @Test
    void everyPlaceThatPinsAVersionIsWatched() throws Exception {
        JsonNode config = new ObjectMapper(new YAMLFactory()).readTree(ROOT.resolve(".github/dependabot.yml").toFile());
        assertEquals(2, config.path("version").asInt());
        Map<String, String> watched = new TreeMap<>();
        config.path("updates").forEach(update -> watched.put(update.path("package-ecosystem").asText(), update.path("directory").asText()));
        assertEquals("/", watched.get("maven"));
        assertEquals("/deploy", watched.get("docker"));
        assertEquals("/", watched.get("docker-compose"));
        assertTrue(Files.isRegularFile(ROOT.resolve("pom.xml")));
        assertTrue(Files.isRegularFile(ROOT.resolve("deploy/Dockerfile")));
        assertTrue(Files.isRegularFile(ROOT.resolve("docker-compose.yml")));
    }
}
