package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * deploy/kubernetes/overlays, the monitoring kustomization's alerts and the dashboard's ConfigMap:
 * what an operator applies builds on the base, ships no secret, and alerts on metrics that exist.
 */
class KubernetesOverlaysTest {
    static final String PASSWORD_SECRET = "sluice-clickhouse";
    private static final Path OVERLAYS = Path.of("..", "deploy", "overlays");
    private static final String BASE = "../../kubernetes";
    private static final Path GRAFANA = Path.of("..", "deploy", "grafana");

    private static JsonNode kustomization(Path directory) throws IOException {
        return KubernetesManifests.documents(directory.resolve("kustomization.yaml")).get(0);
    }

    private static List<Path> overlays() throws IOException {
        try (Stream<Path> list = Files.list(OVERLAYS)) {
            return list.filter(Files::isDirectory).sorted().toList();
        }
    }

    @Test
    void thereAreASmallAProductionAndAClusterOverlay() throws IOException {
        assertEquals(List.of("cluster", "production", "small"), overlays().stream().map(path -> path.getFileName().toString()).toList());
    }

    /** Directly, or through one other overlay (the cluster overlay is production's, less the schema Job). */
    @Test
    void everyOverlayBuildsOnTheBaseAndEachOfItsResourcesIsAKustomization() throws IOException {
        for (Path overlay : overlays()) {
            List<String> resources = resources(overlay);
            boolean onTheBase = resources.contains(BASE);
            for (String resource : resources) {
                onTheBase |= resource.matches("\\.\\./[a-z]+") && resources(overlay.resolve(resource).normalize()).contains(BASE);
            }
            assertTrue(onTheBase, overlay + ": " + resources);
            for (String resource : resources) {
                assertTrue(Files.isRegularFile(overlay.resolve(resource).resolve("kustomization.yaml")), overlay + ": " + resource);
            }
        }
    }

    private static List<String> resources(Path overlay) throws IOException {
        List<String> resources = new ArrayList<>();
        kustomization(overlay).path("resources").forEach(resource -> resources.add(resource.asText()));
        return resources;
    }

    /** On a ClickHouse cluster the schema is cluster.sql, applied by hand: schema-job.yaml says to leave the Job out. */
    @Test
    void theClusterOverlayIsProductionWithoutTheSchemaJob() throws IOException {
        Path cluster = OVERLAYS.resolve("cluster");
        assertEquals(List.of("../production"), resources(cluster));
        JsonNode patch = kustomization(cluster).at("/patches/0");
        assertEquals("Job", patch.at("/target/kind").asText());
        assertEquals("sluice-schema", patch.at("/target/name").asText());
        assertTrue(patch.path("patch").asText().contains("$patch: delete"), patch.toString());
    }

    /** The image comes from the operator's registry; the tag stays the base's, the version being deployed. */
    @Test
    void theProductionOverlayNamesTheImagesRegistryAndKeepsTheBasesTag() throws IOException {
        JsonNode image = kustomization(OVERLAYS.resolve("production")).at("/images/0");
        assertEquals("sluice", image.path("name").asText());
        assertTrue(image.path("newName").asText().contains("/"), image.toString());
        assertTrue(image.path("newTag").isMissingNode(), image.toString());
    }

    @Test
    void everyOverlayMergesThePublicUrlIntoTheBasesConfigMap() throws IOException {
        for (Path overlay : overlays()) {
            if (!resources(overlay).contains(BASE)) {
                continue; // built on another overlay, whose ConfigMap it takes
            }
            JsonNode generator = kustomization(overlay).at("/configMapGenerator/0");
            assertEquals("sluice", generator.path("name").asText(), overlay.toString());
            assertEquals("merge", generator.path("behavior").asText(), overlay.toString());
            assertTrue(generator.path("literals").toString().contains(PublicUrl.SETTING.name() + "="), overlay.toString());
        }
    }

    @Test
    void everyPatchOfAnOverlayTargetsAnObjectOfTheBase() throws Exception {
        KubernetesManifests base = KubernetesManifests.load(KubernetesManifests.BASE);
        for (Path overlay : overlays()) {
            for (JsonNode patch : kustomization(overlay).path("patches")) {
                String kind = patch.at("/target/kind").asText();
                String name = patch.at("/target/name").asText();
                assertTrue(base.objects().stream().anyMatch(object -> object.getKind().equals(kind)
                        && object.getMetadata().getName().equals(name)), overlay + ": no " + kind + "/" + name + " in the base");
            }
        }
    }

    /**
     * The small overlay makes the password's Secret from a file git ignores; kustomize names it by a hash
     * of its content, so applying never replaces a Secret of the same name an operator made.
     */
    @Test
    void theSmallOverlayGeneratesThePasswordSecretFromAFileGitIgnores() throws Exception {
        Path small = OVERLAYS.resolve("small");
        JsonNode generator = kustomization(small).at("/secretGenerator/0");
        assertEquals(PASSWORD_SECRET, generator.path("name").asText());
        assertTrue(generator.path("options").path("disableNameSuffixHash").isMissingNode(), "the name keeps its content hash");
        String file = generator.at("/envs/0").asText();
        assertTrue(Files.readString(small.resolve(file + ".example")).startsWith("SLUICE_CLICKHOUSE_PASSWORD="));
        Process check = new ProcessBuilder("git", "check-ignore", "-q", small.resolve(file).toString()).start();
        assertEquals(0, check.waitFor(), file + " must be ignored by git");
    }

    /**
     * Each overlay builds with the real kustomize (kubectl's; skipped where kubectl is missing): an
     * overlay inside its base's folder, a generator name not rewritten, fail here.
     */
    @Test
    void eachOverlayBuildsWithKustomize() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Stream.of(System.getenv("PATH").split(":"))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, "kubectl"))), "kubectl is not installed");
        Path password = OVERLAYS.resolve("small").resolve("clickhouse-password.env");
        Files.copy(OVERLAYS.resolve("small").resolve("clickhouse-password.env.example"), password);
        try {
            for (Path overlay : overlays()) {
                Process build = new ProcessBuilder("kubectl", "kustomize", overlay.toString()).redirectErrorStream(true).start();
                String output = new String(build.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                assertEquals(0, build.waitFor(), overlay + ": " + output);
                assertTrue(output.contains("SLUICE_PUBLIC_URL"), overlay.toString());
                assertEquals(!overlay.endsWith("cluster"), output.contains("kind: Job"), overlay + ": the schema Job");
                if (overlay.endsWith("small")) {
                    Matcher secret = Pattern.compile("name: (" + PASSWORD_SECRET + "-[a-z0-9]+)").matcher(output);
                    assertTrue(secret.find(), output);
                    String name = secret.group(1);
                    assertEquals(4, countOf(output, name), "the Secret, and the processor's, the schema job's and the ops job's envFrom, name it");
                }
            }
        } finally {
            Files.deleteIfExists(password);
        }
    }

    private static int countOf(String text, String word) {
        int count = 0;
        for (int at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
            count++;
        }
        return count;
    }

    @Test
    void theProductionOverlayShipsNoSecret() throws IOException {
        JsonNode production = kustomization(OVERLAYS.resolve("production"));
        assertTrue(production.path("secretGenerator").isMissingNode());
        assertTrue(production.path("resources").toString().contains("monitoring"), "the alerts and scraping");
    }

    @Test
    void theDashboardIsAConfigMapForGrafanasSidecar() throws IOException {
        JsonNode generator = kustomization(GRAFANA).at("/configMapGenerator/0");
        assertEquals("1", generator.at("/options/labels/grafana_dashboard").asText());
        String file = generator.at("/files/0").asText();
        assertTrue(Files.isRegularFile(GRAFANA.resolve(file)), file);
        assertTrue(Files.readString(Path.of("..", "docker-compose.yml")).contains("deploy/grafana/dashboards"),
                "compose provisions the same file");
    }

    /** Every metric an alert reads is one a server registers (a renamed metric would silence its alert). */
    @Test
    void everyMetricTheAlertsReadIsOneTheServersRegister() throws IOException {
        JsonNode rule = KubernetesManifests.documents(KubernetesManifests.MONITORING.resolve("prometheusrule.yaml")).get(0);
        assertEquals("PrometheusRule", rule.path("kind").asText());
        Set<String> registered = registeredMeterNames();
        Set<String> read = new TreeSet<>();
        for (JsonNode group : rule.at("/spec/groups")) {
            for (JsonNode alert : group.path("rules")) {
                assertTrue(alert.path("annotations").has("summary"), alert.path("alert").asText());
                Matcher metric = Pattern.compile("sluice_[a-z_]+").matcher(alert.path("expr").asText());
                while (metric.find()) {
                    read.add(metric.group());
                }
            }
        }
        assertTrue(read.size() >= 6, read.toString());
        for (String metric : read) {
            String meter = metric.replaceFirst("_total$", "").replace('_', '.');
            assertTrue(registered.contains(meter), metric + " is not registered by any server (" + meter + ")");
        }
    }

    /** The string literals that look like meter names, in every module's main sources. */
    private static Set<String> registeredMeterNames() throws IOException {
        Set<String> names = new TreeSet<>();
        Pattern literal = Pattern.compile("\"(sluice\\.[a-z.]+)\"");
        try (Stream<Path> files = Files.walk(Path.of(".."))) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java") && path.toString().contains("/src/main/")).toList()) {
                Matcher name = literal.matcher(Files.readString(file));
                while (name.find()) {
                    names.add(name.group(1));
                }
            }
        }
        return names;
    }
}
