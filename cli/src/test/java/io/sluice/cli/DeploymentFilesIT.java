package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.sluice.config.Setting;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.SchemaMigrations;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** The files people deploy with say what the code does: queries run, statements parse, settings exist. */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DeploymentFilesIT {
    private static final Path ROOT = Path.of("..");
    private static final Pattern SETTING_NAME = Pattern.compile("\\bSLUICE_[A-Z0-9_]+\\b");

    @Test
    void everyGrafanaPanelQueryRunsAgainstTheRealTables(Engines engines) throws Exception {
        ClickHouseSettings settings = new ClickHouseSettings(engines.clickHouseUrl(), engines.clickHouseUser(),
                engines.clickHousePassword(), "sluice", 90);
        try (var client = ClickHouseClients.create(settings)) {
            SchemaMigrations.apply(client, settings);
        }
        JsonNode dashboard = new ObjectMapper().readTree(ROOT.resolve("deploy/grafana/dashboards/sluice.json").toFile());
        List<String> queries = new ArrayList<>();
        dashboard.get("panels").forEach(panel -> panel.get("targets").forEach(target -> queries.add(target.get("rawSql").asText())));
        queries.add(dashboard.at("/templating/list/0/query").asText());
        for (String sql : queries) {
            String runnable = sql.replace("'${project}'", "'some-project'")
                    .replaceAll("\\$__timeFilter\\((\\w+)\\)", "$1 >= now() - INTERVAL 1 HOUR");
            ClickHouseQuery.run(engines, runnable); // throws with ClickHouse's message when a query is wrong
        }
        assertEquals(6, queries.size(), "five panels and the project variable");
    }

    @Test
    void everyStatementOfTheClusterSchemaParses(Engines engines) throws Exception {
        String sql = Files.readString(ROOT.resolve("deploy/clickhouse/cluster.sql"));
        int statements = 0;
        for (String statement : sql.split(";\\s*\\n")) {
            String code = statement.lines().filter(line -> !line.strip().startsWith("--")).collect(Collectors.joining("\n")).strip();
            if (code.isEmpty()) {
                continue;
            }
            // Query parameters are read as escaped text (TSV rules): escape backslashes and newlines.
            String escaped = code.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t");
            String formatted = ClickHouseQuery.run(engines, "SELECT formatQuery({sql:String})", Map.of("sql", escaped));
            assertTrue(!formatted.isEmpty(), code);
            statements++;
        }
        assertEquals(13, statements);
    }

    @Test
    void composeFileAndKubernetesManifestsNameOnlyDeclaredSettings() throws Exception {
        Set<String> declared = ConfigurationTable.allSettings().stream().map(Setting::name).collect(Collectors.toSet());
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("docker-compose.yml"), ROOT.resolve("deploy/Dockerfile")));
        try (var manifests = Files.list(ROOT.resolve("deploy/kubernetes"))) {
            manifests.forEach(files::add);
        }
        for (Path file : files) {
            String text = Files.readString(file);
            if (file.toString().endsWith(".yaml") || file.toString().endsWith(".yml")) {
                for (var documents = yaml.readerFor(JsonNode.class).readValues(text); documents.hasNext(); ) {
                    documents.next(); // parses, or throws naming the line
                }
            }
            Matcher names = SETTING_NAME.matcher(text);
            while (names.find()) {
                assertTrue(declared.contains(names.group()), file + " names " + names.group() + ", which no setting declares");
            }
        }
    }
}
