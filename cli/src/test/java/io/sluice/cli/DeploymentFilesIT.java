package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.batch.v1.Job;

import io.sluice.config.KafkaClientProperties;
import io.sluice.config.Setting;
import io.sluice.config.Settings;
import io.sluice.gateway.ops.GatewayMetrics;
import io.sluice.metrics.LastMeasurement;
import io.sluice.metrics.PrometheusMetrics;
import io.sluice.processor.ops.ProcessorMeters;
import io.sluice.processor.ops.StreamThreadFailures;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.topology.DeadLetterCounts;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.SchemaMigrations;
import io.sluice.sink.SinkMetrics;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/** The files people deploy with say what the code does: queries run, statements parse, settings exist. */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DeploymentFilesIT {
    private static final Path ROOT = Path.of("..");
    private static final Pattern SLUICE_METRIC = Pattern.compile("\\bsluice_[a-z0-9_]+\\b");
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
        // The ClickHouse panels' SQL (the operations row's Prometheus panels have PromQL, checked below).
        dashboard.get("panels").forEach(panel -> panel.path("targets").forEach(target -> {
            if (target.has("rawSql")) {
                queries.add(target.get("rawSql").asText());
            }
        }));
        queries.add(dashboard.at("/templating/list/0/query").asText());
        queries.add(dashboard.at("/templating/list/1/query").asText());
        for (String sql : queries) {
            String runnable = sql.replace("'${project}'", "'some-project'")
                    .replaceAll("\\$__timeFilter\\((\\w+)\\)", "$1 >= now() - INTERVAL 1 HOUR")
                    .replace("$__fromTime", "toDateTime(now() - INTERVAL 1 HOUR)").replace("$__toTime", "toDateTime(now())")
                    .replace("$__interval_s", "60").replace("${route:sqlstring}", "'*'").replace("${status:sqlstring}", "''");
            ClickHouseQuery.run(engines, runnable); // throws with ClickHouse's message when a query is wrong
        }
        assertEquals(16, queries.size(), "fourteen ClickHouse panels, the project and route variables");
    }

    @Test
    void everyPrometheusPanelQueryNamesMetricsTheServersExpose() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(ROOT.resolve("deploy/grafana/dashboards/sluice.json").toFile());
        Set<String> named = new TreeSet<>();
        dashboard.get("panels").forEach(panel -> panel.path("targets").forEach(target -> {
            Matcher metric = SLUICE_METRIC.matcher(target.path("expr").asText());
            while (metric.find()) {
                named.add(metric.group());
            }
        }));
        assertEquals(Set.of("sluice_gateway_requests_total", "sluice_gateway_kafka_produce_duration_seconds_bucket",
                "sluice_processor_input_lag_records", "sluice_processor_input_lag_age_seconds", "sluice_sink_lag_records",
                "sluice_sink_lag_age_seconds", "sluice_sink_insert_duration_seconds_bucket", "sluice_sink_last_progress_age_seconds"),
                named);
        Set<String> exposed = exposedMetricNames();
        for (String name : named) {
            assertTrue(exposed.contains(name), name + " is not among " + exposed);
        }
    }

    /** The names of the sluice_* series a gateway and a processor expose, their meters registered as at run time. */
    private static Set<String> exposedMetricNames() throws Exception {
        StringBuilder text = new StringBuilder();
        try (GatewayMetrics gateway = new GatewayMetrics(); PrometheusMetrics processor = new PrometheusMetrics()) {
            gateway.answered("transaction", 200, System.nanoTime());
            gateway.produced(System.nanoTime());
            text.append(gateway.prometheusText());
            new SinkMetrics(Duration.ofSeconds(60), processor.registry());
            StreamsBuilder builder = new StreamsBuilder();
            builder.stream("in").to("out");
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, "deployment-files");
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
            props.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("deployment-files").toString());
            try (KafkaStreams streams = new KafkaStreams(builder.build(), props)) { // never started
                ProcessorMeters.bind(processor, streams, new LastMeasurement(), new DeadLetterCounts(), new RecordsReadFromJson(),
                        new StreamThreadFailures());
                text.append(processor.scrapeText());
            }
        }
        return text.toString().lines().filter(line -> line.startsWith("sluice_"))
                .map(line -> line.split("[{ ]", 2)[0]).collect(Collectors.toCollection(TreeSet::new));
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
        assertEquals(25, statements); // with deletions, project_retention and sessions_1h
    }

    @Test
    void theSchemaJobRunsACommandOfTheCliThatCreatesTheTables(Engines engines, @TempDir Path stateDir) throws Exception {
        KubernetesManifests manifests = KubernetesManifests.load(KubernetesManifests.BASE);
        Container job = KubernetesManifests.onlyContainer(manifests.named(Job.class, "sluice-schema").getSpec().getTemplate());
        assertTrue(Usage.TEXT.contains("\n  " + String.join(" ", job.getArgs()) + " "), job.getArgs() + " is in the usage");
        // As deployed (ConfigMap, the Job's own values), with this test's ClickHouse and database.
        Map<String, String> values = new HashMap<>(manifests.named(ConfigMap.class, "sluice").getData());
        job.getEnv().stream().filter(var -> var.getValue() != null).forEach(var -> values.put(var.getName(), var.getValue()));
        Map<String, String> isolated = TestSettings.isolated("schema_job", engines, stateDir).toMap();
        for (String name : List.of("SLUICE_CLICKHOUSE_URL", "SLUICE_CLICKHOUSE_USER", "SLUICE_CLICKHOUSE_PASSWORD", "SLUICE_CLICKHOUSE_DATABASE")) {
            values.put(name, isolated.get(name));
        }

        CliRunner.Result result = CliRunner.run(new Settings(values), job.getArgs().toArray(String[]::new));

        assertEquals(0, result.exitCode(), result.err());
        assertEquals("deletions,errors,errors_1h,errors_1m,outcomes_1m,project_retention,requests_1h,requests_1m,schema_migrations,sessions_1h,traffic_1h,traffic_1m,transactions",
                ClickHouseQuery.run(engines, "SELECT arrayStringConcat(arraySort(groupArray(name)), ',') FROM system.tables"
                        + " WHERE database = 'sluice_schema_job'").strip());
    }

    @Test
    void composeFileAndKubernetesManifestsNameOnlyDeclaredSettings() throws Exception {
        Set<String> declared = ConfigurationTable.allSettings().stream().map(Setting::name).collect(Collectors.toSet());
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("docker-compose.yml"), ROOT.resolve("deploy/Dockerfile")));
        try (var manifests = Files.walk(ROOT.resolve("deploy/kubernetes"))) {
            manifests.filter(Files::isRegularFile).forEach(files::add);
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
                // SLUICE_KAFKA_PROPERTY_<NAME> is a family, one variable per Kafka client property (KafkaClientProperties).
                assertTrue(declared.contains(names.group()) || names.group().startsWith(KafkaClientProperties.VARIABLE_PREFIX),
                        file + " names " + names.group() + ", which no setting declares");
            }
        }
    }
}
