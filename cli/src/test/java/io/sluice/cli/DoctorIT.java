package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.kafka.KafkaClients;
import io.sluice.kafka.TopicSetup;
import io.sluice.processor.ProcessorConfig;
import io.sluice.processor.ProcessorService;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.SchemaMigrations;
import io.sluice.sink.SinkTables;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * {@code ./sluice doctor} on real engines: a healthy stack passes every line (exit 0); Kafka
 * unreachable, ClickHouse unreachable and a schema behind each fail (exit 1) with a line that says
 * what to do, in bounded time.
 */
@ExtendWith(RealEngines.class)
class DoctorIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path stateDir;

    /** Topics and schema in place, as after a first start. */
    private Settings ready(String name, Engines engines) {
        Settings settings = TestSettings.isolated(name, engines, stateDir).build();
        TopicSetup.ensureTopics(KafkaSettings.from(settings));
        assertEquals(0, CliRunner.run(settings, "schema", "apply").exitCode());
        return settings;
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aHealthyStackPassesEveryCheckAndExits0(Engines engines) throws Exception {
        Settings settings = ready("doctorok", engines);
        try (ProcessorService processor = ProcessorService.start(ProcessorConfig.from(settings))) {
            String admin = "http://127.0.0.1:" + processor.adminPort();
            Await.until("the processor ready", Duration.ofSeconds(60), 0,
                    () -> CliRunner.run(settings, "doctor", "--processor", admin).exitCode());
            CliRunner.Result result = CliRunner.run(settings, "doctor", "--processor", admin);
            assertEquals(0, result.exitCode(), result.out() + result.err());
            List<String> lines = result.out().lines().toList();
            assertEquals(List.of("✓ Kafka", "✓ topics", "✓ registry", "✓ ClickHouse", "✓ schema", "✓ deletions", "✓ lag " + admin,
                    "✓ dead letters", "✓ processor " + admin), lines.stream().map(line -> line.substring(0, line.indexOf(": "))).toList(),
                    result.out());
            assertTrue(result.out().contains("✓ schema: all " + SchemaMigrations.count() + " migrations applied in sluice_doctorok\n"),
                    result.out());
            assertTrue(result.out().contains("✓ dead letters: 0 in the last hour\n"), result.out());

            JsonNode json = JSON.readTree(CliRunner.run(settings, "doctor", "--json").out());
            assertTrue(json.get("ok").asBoolean(), json.toString());
            assertEquals("processor lag", json.get("checks").get(6).get("name").asText(), json.toString());
        }
    }

    /** One record in each topic the sink reads, none read yet: doctor's sink lag counts each. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theSinkLagCountsEveryTopicTheSinkReads(Engines engines) throws Exception {
        Settings settings = ready("doctorsinklag", engines);
        KafkaSettings kafka = KafkaSettings.from(settings);
        Set<String> sinkTopics = SinkTables.of(kafka.topics(), ClickHouseSettings.from(settings).database()).tableByTopic().keySet();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(KafkaClients.producerProperties(kafka, "doctor-sink-lag"),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String topic : sinkTopics) {
                producer.send(new ProducerRecord<>(topic, new byte[]{1}, new byte[]{1})).get(30, TimeUnit.SECONDS);
            }
        }
        CliRunner.Result result = CliRunner.run(settings, "doctor");
        // The sink reads ten topics: the two history topics and the eight aggregates' (SinkTablesTest lists them).
        assertTrue(result.out().contains("\n✓ sink lag: 10 records behind (group sluice-doctorsinklag-sink)\n"), result.out());
    }

    /** One record in each raw topic (transactions, errors, sessions), none read yet: doctor's processor lag counts each. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theProcessorLagCountsEveryRawTopic(Engines engines) throws Exception {
        Settings settings = ready("doctorrawlag", engines);
        KafkaSettings kafka = KafkaSettings.from(settings);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(KafkaClients.producerProperties(kafka, "doctor-raw-lag"),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String topic : List.of(kafka.topics().transactions(), kafka.topics().errors(), kafka.topics().sessions())) {
                producer.send(new ProducerRecord<>(topic, new byte[]{1}, new byte[]{1})).get(30, TimeUnit.SECONDS);
            }
        }
        CliRunner.Result result = CliRunner.run(settings, "doctor");
        assertTrue(result.out().contains("\n✓ processor lag: 3 records behind (group sluice-doctorrawlag)\n"), result.out());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void kafkaUnreachableFailsWithWhatToCheckWithinTheTimeout(Engines engines) {
        Settings unreachable = TestSettings.isolated("doctornokafka", engines, stateDir).with("SLUICE_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:1").build();
        long start = System.nanoTime();
        CliRunner.Result result = CliRunner.run(unreachable, "doctor", "--timeout", "3s");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertEquals(1, result.exitCode(), result.out() + result.err());
        String kafka = result.out().lines().findFirst().orElseThrow();
        assertTrue(kafka.startsWith("✗ Kafka: no answer from 127.0.0.1:1 (PLAINTEXT) within 3 s"), kafka);
        assertTrue(kafka.endsWith("→ is Kafka up and reachable from here? check SLUICE_KAFKA_BOOTSTRAP_SERVERS and the SLUICE_KAFKA_* "
                + "security settings (./sluice config lists them)"), kafka);
        assertTrue(result.out().contains("\n✗ topics: not checked: Kafka is unreachable → fix that first\n"), result.out());
        assertTrue(seconds < 15, seconds + " s");
    }

    /** A readiness endpoint that sends its head and then stalls holds the check only as long as the timeout. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aGatewayThatStallsInItsAnswerFailsWithinTheTimeout(Engines engines) throws Exception {
        Settings unreachable = TestSettings.isolated("doctorstall", engines, stateDir).with("SLUICE_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:1").build();
        try (java.net.ServerSocket stalling = new java.net.ServerSocket(0, 10, java.net.InetAddress.getLoopbackAddress())) {
            Thread server = new Thread(() -> {
                try (java.net.Socket client = stalling.accept()) {
                    client.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{".getBytes());
                    client.getOutputStream().flush();
                    Thread.sleep(60_000);
                } catch (Exception ignored) {
                    // the test is over
                }
            }, "stalling-readyz");
            server.setDaemon(true);
            server.start();
            String gatewayUrl = "http://127.0.0.1:" + stalling.getLocalPort();
            long start = System.nanoTime();
            CliRunner.Result result = CliRunner.run(unreachable, "doctor", "--timeout", "2s", "--gateway", gatewayUrl);
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertEquals(1, result.exitCode(), result.out() + result.err());
            String gateway = result.out().lines().filter(line -> line.contains("gateway " + gatewayUrl)).findFirst().orElseThrow();
            assertTrue(gateway.startsWith("✗ "), gateway);
            assertTrue(seconds < 20, seconds + " s");
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void clickHouseUnreachableFailsNamingItsUrl(Engines engines) {
        Settings settings = ready("doctornoch", engines);
        CliRunner.Result result = CliRunner.run(settings, "doctor", "--clickhouse-url", "http://127.0.0.1:1", "--gateway", "http://127.0.0.1:1");
        assertEquals(1, result.exitCode(), result.out() + result.err());
        String clickHouse = result.out().lines().filter(line -> line.contains(" ClickHouse: ")).findFirst().orElseThrow();
        assertTrue(clickHouse.startsWith("✗ ClickHouse: no answer from http://127.0.0.1:1 within 5 s"), clickHouse);
        assertTrue(clickHouse.endsWith("check SLUICE_CLICKHOUSE_URL, SLUICE_CLICKHOUSE_USER and SLUICE_CLICKHOUSE_PASSWORD"), clickHouse);
        assertTrue(result.out().startsWith("✓ Kafka: "), result.out());
        List<String> lines = result.out().lines().toList();
        String gateway = lines.get(lines.size() - 1);
        assertTrue(gateway.startsWith("✗ gateway http://127.0.0.1:1: no answer from http://127.0.0.1:1/readyz: ")
                && gateway.endsWith(" → is it running? is this its admin address?"), gateway);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aSchemaBehindFailsNamingSchemaApply(Engines engines) {
        Settings settings = ready("doctorbehind", engines);
        ClickHouseQuery.run(engines, "ALTER TABLE sluice_doctorbehind.schema_migrations DELETE WHERE version = 1 SETTINGS mutations_sync = 1");
        CliRunner.Result result = CliRunner.run(settings, "doctor");
        assertEquals(1, result.exitCode(), result.out() + result.err());
        int all = SchemaMigrations.count();
        assertTrue(result.out().contains("\n✗ schema: " + (all - 1) + " of " + all + " migrations applied in sluice_doctorbehind, "
                + "missing V001__transactions_and_traffic.sql → run ./sluice schema apply\n"), result.out());

        // schema apply records it again (its statements are idempotent), and the line passes.
        assertEquals(0, CliRunner.run(settings, "schema", "apply").exitCode());
        assertTrue(CliRunner.run(settings, "doctor").out().contains("\n✓ schema: all " + all + " migrations applied in sluice_doctorbehind\n"));
    }

    /** A deletion or retention change ClickHouse has not finished (a mutation not done) fails, naming the table and why. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aDeletionNotDoneInClickHouseFailsNamingItsTable(Engines engines) {
        Settings settings = ready("doctorpending", engines);
        assertTrue(CliRunner.run(settings, "doctor").out().contains("\n✓ deletions: none pending in sluice_doctorpending\n"));
        ClickHouseQuery.run(engines, "INSERT INTO sluice_doctorpending.errors (event_id, project, timestamp, received_at) "
                + "VALUES ('e', 'p', now64(3), now64(3))");
        // A mutation that cannot finish: it fails on every row and stays pending, as a deletion stuck on a broken part would.
        ClickHouseQuery.run(engines, "ALTER TABLE sluice_doctorpending.errors DELETE WHERE throwIf(project = 'p') SETTINGS mutations_sync = 0");

        String line = Await.until("the mutation's failure recorded", Duration.ofSeconds(30), true,
                () -> CliRunner.run(settings, "doctor").out().contains("✗ deletions: 1 ")) ? CliRunner.run(settings, "doctor").out()
                .lines().filter(l -> l.startsWith("✗ deletions")).findFirst().orElseThrow() : "";
        ClickHouseQuery.run(engines, "KILL MUTATION WHERE database = 'sluice_doctorpending' SYNC");

        assertTrue(line.startsWith("✗ deletions: 1 not done in sluice_doctorpending (errors, failing: Code: 395.")
                && line.endsWith(" → it is retried in the background; when it keeps failing, fix its cause (system.mutations, "
                + "latest_fail_reason) or KILL MUTATION and run the same ./sluice projects command again"), line);
    }

    /**
     * A deletion recorded whose rows remain with no mutation left (the command stopped before its ALTER, was
     * interrupted, or its mutation was killed) fails, naming the deletion and the tables that still hold its rows.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aRecordedDeletionWhoseRowsRemainFailsNamingItEvenWithNoMutationPending(Engines engines) {
        Settings settings = ready("doctorleft", engines);
        ClickHouseQuery.run(engines, "INSERT INTO sluice_doctorleft.errors (event_id, project, timestamp, received_at, user_id) "
                + "VALUES ('e1', 'shop', now64(3), now64(3), 'leaving'), ('e2', 'shop', now64(3), now64(3), 'staying')");
        ClickHouseQuery.run(engines, "INSERT INTO sluice_doctorleft.traffic_1m (project, environment, minute, requests, version) "
                + "VALUES ('closed', 'prod', now(), 3, 1)");
        ClickHouseQuery.run(engines, "INSERT INTO sluice_doctorleft.deletions (project, user_id, deleted_at, deleted_by) "
                + "VALUES ('shop', 'leaving', now64(3), 'test'), ('closed', '', now64(3), 'test'), ('gone', '', now64(3), 'test')");

        CliRunner.Result result = CliRunner.run(settings, "doctor");

        String line = result.out().lines().filter(l -> l.contains(" deletions: ")).findFirst().orElseThrow();
        assertEquals("✗ deletions: 2 recorded with rows left in sluice_doctorleft: project closed (traffic_1m), user leaving of project "
                + "shop (errors) → run the same ./sluice projects delete or delete-user command again", line);
        assertEquals(1, result.exitCode(), result.out());
    }
}
