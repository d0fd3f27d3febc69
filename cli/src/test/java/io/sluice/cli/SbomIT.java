package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The build's software bill of materials (after package) names exactly the jars the server ships in lib/. */
class SbomIT {
    private static final Path TARGET = Path.of("target");

    @Test
    void theSbomListsEveryJarTheServerShipsAndNothingElse() throws Exception {
        // The CycloneDX plugin skips makeBom when Maven runs offline (-o); CI and releases build online.
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.exists(TARGET.resolve("sluice-sbom.json")),
                "no SBOM: this build ran offline");
        JsonNode sbom = new ObjectMapper().readTree(TARGET.resolve("sluice-sbom.json").toFile());
        assertEquals("CycloneDX", sbom.path("bomFormat").asText());
        Set<String> listed = new TreeSet<>();
        sbom.path("components").forEach(component -> listed.add(component.path("name").asText() + "-" + component.path("version").asText()));
        Set<String> shipped = new TreeSet<>();
        try (Stream<Path> jars = Files.list(TARGET.resolve("lib"))) {
            jars.map(jar -> jar.getFileName().toString()).filter(name -> name.endsWith(".jar"))
                    .forEach(name -> shipped.add(name.substring(0, name.length() - ".jar".length())));
        }
        assertTrue(shipped.size() > 20, shipped.toString());
        Set<String> unlisted = new TreeSet<>(shipped);
        unlisted.removeIf(jar -> listed.contains(jar) || listed.stream().anyMatch(jar::startsWith)); // a classifier (zstd-jni-…-linux) rides on its artifact
        assertEquals(Set.of(), unlisted, "shipped in lib/ but not in the SBOM");
        Set<String> extra = new TreeSet<>(listed);
        extra.removeIf(component -> shipped.stream().anyMatch(jar -> jar.startsWith(component)));
        assertEquals(Set.of(), extra, "in the SBOM but not shipped");
    }
}
